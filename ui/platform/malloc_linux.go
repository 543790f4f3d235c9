//go:build linux && cgo

package platform

// glibc's malloc gives each thread that calls it (here: the C code of libdeflate and of Fyne's
// drivers, on the Go runtime's threads) an arena of its own until there are 8 per core, and
// reserves 64 MiB of address space for each. Measured on 2 cores: `idxlabel check` on MNIST's
// test set held 8 of them, 512 MiB of its 1.95 GB of address space, for about 90 MB resident;
// the Go runtime itself reserves 1.2 GB at start. Under `ulimit -v` (RLIMIT_AS, common on
// shared clusters) that is what runs out, not memory, and with many cores the arenas alone
// pass any such limit.
//
// The constructor below runs before the Go runtime starts (an ELF constructor, before any
// thread exists) and caps the arenas at 2 (mallopt M_ARENA_MAX), unless the person chose
// otherwise (MALLOC_ARENA_MAX, or arena_max in GLIBC_TUNABLES). The C code here allocates
// little and rarely from more than one thread at a time, so two arenas cost no speed.

/*
#include <stdlib.h>
#include <string.h>

#ifdef __GLIBC__
#include <malloc.h>

static void idxlabel_cap_malloc_arenas(void) __attribute__((constructor));

static void idxlabel_cap_malloc_arenas(void) {
	const char *t = getenv("GLIBC_TUNABLES");
	if (getenv("MALLOC_ARENA_MAX") != NULL || (t != NULL && strstr(t, "arena_max") != NULL)) {
		return;
	}
	mallopt(M_ARENA_MAX, 2);
}
#endif
*/
import "C"
