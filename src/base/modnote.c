/*
 * modnote.c - the note every module of dbench carries, and the binary
 * too: an ELF note named MODLOAD_NOTE_NAME, of type MODLOAD_NOTE_TYPE,
 * whose text is the version of the interface it was built for,
 * MODLOAD_VERSION ("ABI 1, interface <hash of the headers>").
 * modload.c reads it from a module's file before opening it, and loads
 * none of another build.  The Makefile links this object into every
 * module.  Holds no code and knows nothing else.
 */
#include "modload.h"

#ifndef MODLOAD_VERSION
#error "DBENCH_IFACE_HASH must be defined (the Makefile's hash of the headers)"
#endif

/* An allocated note section, which the linker puts in a PT_NOTE segment:
 * the name's and the text's sizes (with their NULs), the type, the name
 * and the text, each padded to 4 bytes. */
__asm__(".pushsection .note.dbench, \"a\", %note\n"
	".balign 4\n"
	".long 4f - 3f\n"
	".long 2f - 1f\n"
	".long " MODLOAD_STR(MODLOAD_NOTE_TYPE) "\n"
	"3: .asciz \"" MODLOAD_NOTE_NAME "\"\n"
	"4: .balign 4\n"
	"1: .asciz \"" MODLOAD_VERSION "\"\n"
	"2: .balign 4\n"
	".popsection\n");
