//go:build !unix && !windows

package atomicfile

// NoFollow is 0 where the system has no O_NOFOLLOW: callers check the file with Lstat before
// and Stat after opening it, which refuses symbolic links there.
const NoFollow = 0
