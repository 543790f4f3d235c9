//go:build !unix

package store

// oNoFollow is 0 where the system has no O_NOFOLLOW (Windows): openJournalFile's Lstat and
// Stat checks refuse symbolic links there.
const oNoFollow = 0
