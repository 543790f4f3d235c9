// Package version is the program's version, in one place for the window (Help → About) and the
// command line. It is FyneApp.toml's [Details] Version, the version scripts/package.sh puts in
// the packages' names; version_test.go fails when the two differ.
package version

// Version is idxlabel's version (semantic versioning: major.minor.patch).
const Version = "0.1.0"
