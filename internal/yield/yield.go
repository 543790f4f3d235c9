// Package yield lets a long copy or comparison of in-memory arrays give way to the scheduler
// (Yielder), so that a garbage collection never waits for it.
package yield

import "runtime"

// Bytes is how many bytes a loop copies or compares in memory between two yields.
const Bytes = 1 << 20

// Yielder lets a save's long copy or comparison of in-memory arrays give way every Bytes
// bytes (runtime.Gosched), so that a garbage collection can scan the saving goroutine's stack.
// Such loops spend their time in runtime.memmove or memequal (on a new array, in its page faults
// there): assembly, where the runtime cannot preempt a goroutine asynchronously. A collection
// started meanwhile then waits for the loop's end to finish marking, and a goroutine that
// allocates until then, the window's included, can be held in a mark assist: in a trace of
// Ctrl+S on a 60,000-sample pair, when a save still copied the kept samples into a new 47 MB
// array, the window's goroutine sat 151 ms in one, frozen (scripts/savelat.sh measures it).
// Saves now write the rows from the dataset's own buffers; the loops that remain are the
// read-back's comparison (package pairfile) and the copies package store makes of a buffer
// mostly deleted or of two merged. A yield per MiB costs about 50 scheduler calls for 47 MB.
type Yielder struct{ n int }

// Add counts n more bytes done and yields once Bytes have been done since the last yield.
func (y *Yielder) Add(n int) {
	y.n += n
	if y.n >= Bytes {
		y.n = 0
		runtime.Gosched()
	}
}
