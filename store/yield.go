package store

import "runtime"

// yieldBytes is how many bytes a save copies or compares in memory between two yields.
const yieldBytes = 1 << 20

// yielder lets a save's long copy or comparison of in-memory arrays give way every yieldBytes
// bytes (runtime.Gosched), so that a garbage collection can scan the saving goroutine's stack.
// Such loops spend their time in runtime.memmove or memequal (on a new array, in its page faults
// there): assembly, where the runtime cannot preempt a goroutine asynchronously. A collection
// started meanwhile (the save's own 47 MB array for 60,000 samples starts one) then waits for
// the loop's end to finish marking, and a goroutine that allocates until then, the window's
// included, can be held in a mark assist: in a trace of Ctrl+S on a 60,000-sample pair the
// window's goroutine sat 151 ms in one, frozen, while build copied (issue 11 §3,
// scripts/savelat.sh). A yield per MiB costs about 50 scheduler calls for 47 MB.
type yielder struct{ n int }

// add counts n more bytes done and yields once yieldBytes have been done since the last yield.
func (y *yielder) add(n int) {
	y.n += n
	if y.n >= yieldBytes {
		y.n = 0
		runtime.Gosched()
	}
}
