//go:build !unix

package main

import "os"

// maxRSS is unknown off Unix: 0.
func maxRSS(*os.ProcessState) float64 { return 0 }
