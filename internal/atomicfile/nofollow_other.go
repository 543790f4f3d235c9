//go:build !unix && !windows

package atomicfile

// NoFollow is 0 where the system has no O_NOFOLLOW: callers check the file with Lstat before
// and Stat after opening it, which refuses symbolic links there.
const NoFollow = 0

// followRefused is false here: without O_NOFOLLOW the checks around the open refuse a link.
func followRefused(error) bool { return false }
