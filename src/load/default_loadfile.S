/*
 * default_loadfile.S - embeds loadfiles/default.txt in the binary, so that
 * `dbench N` needs no file from the tree or an installation.
 */
	.section .rodata
	.globl default_loadfile_text
	.globl default_loadfile_end
	.balign 16
default_loadfile_text:
	.incbin "loadfiles/default.txt"
default_loadfile_end:
	.byte 0

	.section .note.GNU-stack,"",%progbits
