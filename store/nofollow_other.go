//go:build !unix && !windows

package store

// oNoFollow is 0 where the system has no O_NOFOLLOW: openJournalFile's Lstat and Stat checks
// refuse symbolic links there.
const oNoFollow = 0
