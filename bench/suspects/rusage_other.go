//go:build !unix

package main

import "time"

// cpuTime is 0 where the process's CPU time is not read (the figures are measured on Linux).
func cpuTime() time.Duration { return 0 }

// peakRSS is 0 where the peak resident set size is not read.
func peakRSS() float64 { return 0 }
