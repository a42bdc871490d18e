/*
 * smb_args.c - parsing and checking the smb backend's share and
 * credentials (see smb_args.h).  Nothing here talks to a server.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smb_args.h"
#include "infile.h"
#include "secret.h"

/* ---- the share ---- */

static bool smb_args_host_char(char c)
{
	return isalnum((unsigned char)c) || c == '.' || c == '-' || c == '_';
}

/* A share name or a path component: printable, none of the characters
 * SMB forbids in names, and not "." or "..". */
static const char *smb_args_name_problem(const char *s, size_t n)
{
	if (n == 0)
		return "an empty name";
	if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
		return "a '.' or '..' component";
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f || strchr("\\:*?\"<>|", c))
			return "a character not allowed in an SMB name";
	}
	return NULL;
}

static struct smb_share *smb_args_share_fail(struct smb_share *sh, TALLOC_CTX *mem_ctx,
					     char **err, const char *why)
{
	*err = talloc_asprintf(mem_ctx, "--smb-share '%s': %s (want //HOST[:PORT]/SHARE[/PATH])",
			       secret_mask_url(sh, sh->spec), why);
	talloc_free(sh);
	return NULL;
}

/* HOST[:PORT] or [IPV6][:PORT], n characters at p. */
static const char *smb_args_host(struct smb_share *sh, const char *p, size_t n)
{
	const char *end = p + n, *colon;

	if (n > 0 && *p == '[') {
		const char *close = memchr(p, ']', n);
		if (!close || close == p + 1)
			return "an unclosed or empty [IPv6 address]";
		for (const char *q = p + 1; q < close; q++)
			if (!isxdigit((unsigned char)*q) && *q != ':' && *q != '.')
				return "a bad character in the [IPv6 address]";
		sh->host = talloc_strndup(sh, p + 1, (size_t)(close - p - 1));
		colon = close + 1 < end ? close + 1 : NULL;
		if (colon && *colon != ':')
			return "something after the ] other than :PORT";
	} else {
		colon = memchr(p, ':', n);
		size_t hl = colon ? (size_t)(colon - p) : n;
		if (hl == 0)
			return "no host";
		for (size_t i = 0; i < hl; i++)
			if (!smb_args_host_char(p[i]))
				return "a bad character in the host name";
		sh->host = talloc_strndup(sh, p, hl);
	}
	if (!sh->host)
		return "out of memory";
	if (colon) {
		unsigned long port = 0;
		const char *q = colon + 1;
		if (q == end)
			return "an empty port";
		for (; q < end; q++) {
			if (!isdigit((unsigned char)*q) || (port = port * 10 + (unsigned)(*q - '0')) > 65535)
				return "a port that is not a number from 1 to 65535";
		}
		if (port == 0)
			return "a port that is not a number from 1 to 65535";
		sh->port = (unsigned)port;
		sh->port_given = true;
	}
	return NULL;
}

struct smb_share *smb_args_share(TALLOC_CTX *mem_ctx, const char *spec, char **err)
{
	struct smb_share *sh = talloc_zero(mem_ctx, struct smb_share);
	const char *p, *why;

	if (!sh || !(sh->spec = talloc_strdup(sh, spec))) {
		talloc_free(sh);
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	sh->port = SMB_DEFAULT_PORT;
	if (strncmp(spec, "//", 2) == 0)
		p = spec + 2;
	else if (strncasecmp(spec, "smb://", 6) == 0)
		p = spec + 6;
	else
		return smb_args_share_fail(sh, mem_ctx, err, "it does not start with //");
	size_t hn = strcspn(p, "/");
	if (memchr(p, '@', hn))
		return smb_args_share_fail(sh, mem_ctx, err, "a user in the share's name (give"
					   " it with --smb-user or --smb-credentials)");
	if ((why = smb_args_host(sh, p, hn)) != NULL)
		return smb_args_share_fail(sh, mem_ctx, err, why);
	p += hn;
	if (*p++ != '/')
		return smb_args_share_fail(sh, mem_ctx, err, "no share");
	size_t sn = strcspn(p, "/");
	if (sn == 0)
		return smb_args_share_fail(sh, mem_ctx, err, "no share");
	if ((why = smb_args_name_problem(p, sn)) != NULL)
		return smb_args_share_fail(sh, mem_ctx, err,
					   talloc_asprintf(sh, "the share name has %s", why));
	sh->share = talloc_strndup(sh, p, sn);
	p += sn;
	sh->path = talloc_strdup(sh, "");
	while (*p == '/' && p[1]) {
		p++;
		size_t cn = strcspn(p, "/");
		if ((why = smb_args_name_problem(p, cn)) != NULL)
			return smb_args_share_fail(sh, mem_ctx, err,
						   talloc_asprintf(sh, "the path has %s", why));
		sh->path = talloc_asprintf_append(sh->path, "%s%.*s", *sh->path ? "/" : "",
						  (int)cn, p);
		p += cn;
	}
	if (!sh->share || !sh->path)
		return smb_args_share_fail(sh, mem_ctx, err, "out of memory");
	return sh;
}

/* ---- credentials ---- */

static int smb_args_wipe(char *s)
{
	volatile char *v = s;

	while (*v)
		*v++ = '\0';
	return 0;
}

static char *smb_args_password(TALLOC_CTX *mem_ctx, const char *s, size_t n)
{
	char *pw = talloc_strndup(mem_ctx, s, n);

	if (pw)
		talloc_set_destructor(pw, smb_args_wipe);
	return pw;
}

/* Set *field to a copy of n bytes at s unless something set it already. */
static bool smb_args_take(TALLOC_CTX *mem_ctx, char **field, const char *s, size_t n)
{
	if (*field)
		return true;
	*field = talloc_strndup(mem_ctx, s, n);
	return *field != NULL;
}

bool smb_args_user(TALLOC_CTX *mem_ctx, const char *arg, const char *what,
		   struct smb_creds *creds, char **err)
{
	const char *pct = strchr(arg, '%');
	size_t un = pct ? (size_t)(pct - arg) : strlen(arg);
	const char *sep = NULL;

	for (size_t i = 0; i < un; i++)
		if (arg[i] == '/' || arg[i] == '\\')
			sep = arg + i;
	const char *user = sep ? sep + 1 : arg;
	size_t len = (size_t)(arg + un - user);
	if (len == 0 || (sep && sep == arg)) {
		*err = talloc_asprintf(mem_ctx, "%s: no %s (want [DOMAIN/]USER[%%PASSWORD])",
				       what, len == 0 ? "user name" : "domain before the /");
		return false;
	}
	bool had_user = creds->user != NULL;
	if (!smb_args_take(mem_ctx, &creds->user, user, len) ||
	    (sep && !had_user && !smb_args_take(mem_ctx, &creds->domain, arg, (size_t)(sep - arg))))
		goto oom;
	if (pct && !creds->password && !(creds->password = smb_args_password(mem_ctx, pct + 1,
									     strlen(pct + 1))))
		goto oom;
	return true;
oom:
	*err = talloc_strdup(mem_ctx, "out of memory");
	return false;
}

/* Does `line` (n bytes) start with key `k`, then blanks and '='?  Then
 * *val is the value, blanks before it skipped. */
static bool smb_args_key(const char *line, const char *k, const char **val)
{
	size_t kl = strlen(k);

	if (strncasecmp(line, k, kl) != 0)
		return false;
	line += kl;
	line += strspn(line, " \t");
	if (*line != '=')
		return false;
	line++;
	*val = line + strspn(line, " \t");
	return true;
}

/* One line of a credentials file, blanks before it skipped: false with
 * *msg (on tmp) when it is wrong or memory runs out. */
static bool smb_args_cred_line(TALLOC_CTX *tmp, const char *l, const char *path,
			       unsigned lineno, struct smb_creds *creds, char **msg)
{
	const char *val;

	if (*l == '\0' || *l == '#' || *l == ';')
		return true;
	if (smb_args_key(l, "username", &val))
		return smb_args_user(tmp, val, talloc_asprintf(tmp, "%s:%u", path, lineno), creds,
				     msg);
	bool ok = true;
	if (smb_args_key(l, "password", &val))
		ok = creds->password || (creds->password = smb_args_password(tmp, val, strlen(val)));
	else if (smb_args_key(l, "domain", &val))
		ok = !*val || smb_args_take(tmp, &creds->domain, val, strlen(val));
	else if (!smb_args_key(l, "realm", &val)) {
		*msg = talloc_asprintf(tmp, "%s:%u: not 'username = ...', 'password = ...',"
				       " 'domain = ...' or 'realm = ...'", path, lineno);
		return false;
	}
	if (!ok)
		*msg = talloc_strdup(tmp, "out of memory");
	return ok;
}

bool smb_args_credentials_file(TALLOC_CTX *mem_ctx, const char *path,
			       struct smb_creds *creds, char **err)
{
	TALLOC_CTX *tmp = talloc_new(NULL);
	char line[SMB_ARGS_LINE_MAX + 2], *msg = NULL;
	const char *why;
	unsigned lineno = 0;
	bool ok = false;
	/* a regular file, or a pipe (<(pass show smb)) that is written to in time;
	 * never a device that would not end (infile.h) */
	int fd = infile_open(tmp, path, INFILE_REGULAR | INFILE_PIPE, SMB_ARGS_PIPE_WAIT_S, &why);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (!f) {
		msg = talloc_asprintf(tmp, "--smb-credentials '%s': %s", path,
				      fd < 0 ? why : strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);
		lineno++;
		if (n > 0 && line[n - 1] != '\n' && !feof(f)) {
			msg = talloc_asprintf(tmp, "%s:%u: a line longer than %d bytes", path, lineno,
					      SMB_ARGS_LINE_MAX);
			goto out;
		}
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (!smb_args_cred_line(tmp, line + strspn(line, " \t"), path, lineno, creds, &msg))
			goto out;
	}
	if (ferror(f))
		msg = talloc_asprintf(tmp, "--smb-credentials '%s': %s", path, strerror(errno));
	else
		ok = true;
out:
	explicit_bzero(line, sizeof(line));	/* it held the password */
	if (f)
		fclose(f);
	/* What was taken from the file belongs to the caller now. */
	talloc_steal(mem_ctx, creds->domain);
	talloc_steal(mem_ctx, creds->user);
	talloc_steal(mem_ctx, creds->password);
	if (!ok)
		*err = talloc_steal(mem_ctx, msg);
	talloc_free(tmp);
	return ok;
}

void smb_args_forget_env(void)
{
	char *env;

	if ((env = getenv("PASSWD")))
		smb_args_wipe(env);
	if ((env = getenv("USER")) && strchr(env, '%'))
		smb_args_wipe(strchr(env, '%') + 1);
}

bool smb_args_creds(TALLOC_CTX *mem_ctx, const char *user, const char *file,
		    struct smb_creds *creds, char **err)
{
	const char *env;

	if (user && !smb_args_user(mem_ctx, user, "--smb-user", creds, err))
		return false;
	if (file && !smb_args_credentials_file(mem_ctx, file, creds, err))
		return false;
	if (!creds->user && (env = getenv("USER")) && *env &&
	    !smb_args_user(mem_ctx, env, "$USER", creds, err))
		return false;
	if (!creds->password && (env = getenv("PASSWD")) &&
	    !(creds->password = smb_args_password(mem_ctx, env, strlen(env)))) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return false;
	}
	if (!creds->user) {
		*err = talloc_strdup(mem_ctx, "smb: no user name: give --smb-user=[DOMAIN/]USER%PASSWORD,"
				     " --smb-credentials=FILE or $USER");
		return false;
	}
	if (!creds->password) {
		*err = talloc_asprintf(mem_ctx, "smb: no password for '%s': give --smb-user=%s%%PASSWORD,"
				       " a password line in --smb-credentials=FILE or $PASSWD",
				       creds->user, creds->user);
		return false;
	}
	return true;
}
