// Package platform is the program's glue to the system it runs on, outside what Fyne offers:
// fitting the main window to the screen's work area (through GLFW, Fyne's desktop driver), and on
// glibc systems two constructors: one makes the common "C.UTF-8" locale one Fyne can parse, the
// other caps malloc's per-thread arenas (address space under ulimit -v). The program's entry
// imports it; nothing else does.
package platform
