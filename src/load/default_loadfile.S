/*
 * default_loadfile.S - embeds loadfiles/default.txt, gzip-compressed (the
 * build makes DEFAULT_LOADFILE_GZ from it), in the binary, so that
 * `dbench N` needs no file from the tree or an installation.  Compressed,
 * its 2.2 MB of text are not pages of the binary that every run maps and
 * reads (loadfile_default() inflates them into memory it frees).
 */
	.section .rodata
	.globl default_loadfile_gz
	.globl default_loadfile_gz_end
	.balign 16
default_loadfile_gz:
	.incbin DEFAULT_LOADFILE_GZ
default_loadfile_gz_end:
	.byte 0

	.section .note.GNU-stack,"",%progbits
