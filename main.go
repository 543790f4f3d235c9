// Command idxlabel ("IDX Labeler") opens, corrects, extends and writes IDX datasets, the MNIST
// file format. With a sub-command it runs on the command line (see cli.go); otherwise it opens
// the GUI on the files named, or on a demo dataset.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }
