//go:build linux && cgo

package platform

// Fyne's lang package, in its package init (before any of our code runs), reads the locale from
// LC_ALL, LC_MESSAGES or LANG through github.com/jeandeaual/go-locale. That library knows the
// plain "C" and "POSIX" locales but not the common "C.UTF-8": it passes "C" on to
// golang.org/x/text's language.Parse, which refuses it, and Fyne logs three "Fyne error: Error
// parsing user locale C" lines on stderr, in every sub-command and in the GUI.
//
// The constructor below runs before the Go runtime starts (glibc calls ELF constructors with
// argc, argv and envp before main) and cuts the codeset off "C.<codeset>" and
// "POSIX.<codeset>" in those three variables, in place in the environment block the Go runtime
// reads next: "C.UTF-8" becomes "C", which go-locale recognises as "no language" (Fyne then
// uses English). Nothing else changes: Go does not use the codeset, and the sub-commands'
// output is UTF-8 either way. Other C libraries (musl) do not pass envp to constructors, so the
// code is only built with glibc.

/*
#include <string.h>

#ifdef __GLIBC__
static void idxlabel_plain_c_locale(int argc, char **argv, char **envp) __attribute__((constructor));

static void idxlabel_plain_c_locale(int argc, char **argv, char **envp) {
	static const char *const names[] = {"LC_ALL=", "LC_MESSAGES=", "LANG="};
	(void)argc;
	(void)argv;
	if (envp == NULL) {
		return;
	}
	for (char **e = envp; *e != NULL; e++) {
		for (int k = 0; k < 3; k++) {
			size_t n = strlen(names[k]);
			if (strncmp(*e, names[k], n) != 0) {
				continue;
			}
			char *v = *e + n;
			if (strncmp(v, "C.", 2) == 0) {
				v[1] = '\0';
			} else if (strncmp(v, "POSIX.", 6) == 0) {
				v[5] = '\0';
			}
		}
	}
}
#endif
*/
import "C"
