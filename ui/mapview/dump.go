package mapview

import (
	"fmt"
	"math"
	"os"

	"idxlabel/report"
	"idxlabel/ui/scan"
)

// SetDump has the map write, for the real-window tests (testhook.Map), each layout to path as
// CSV (index,x,y by sample) and each frame's view to path+".view".
func (m *Mode) SetDump(path string) {
	m.Maps.dump = path
	m.Panel.View.SetDump(path + ".view")
}

// writeDump writes d's map as CSV by sample to the test hook's file, when one is set.
func (m *Mapper) writeDump(d *scan.Data) {
	l := m.layOf(d)
	if m.dump == "" || l == nil {
		return
	}
	xy := make([]float32, 2*len(l.Point))
	for i, p := range l.Point {
		xy[2*i], xy[2*i+1] = float32(math.NaN()), float32(math.NaN())
		if p >= 0 {
			xy[2*i], xy[2*i+1] = l.XY[2*p], l.XY[2*p+1]
		}
	}
	f, err := os.Create(m.dump)
	if err == nil {
		err = report.WriteMapCSV(f, xy)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "idxlabel: writing the map for the test:", err)
	}
}
