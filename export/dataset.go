package export

import "idxlabel/store"

// FromDataset presents the dataset's samples as they are now, edits included and deleted
// samples left out, in display order (EMNIST's transposed storage shown upright), each named by
// its sample number. The pixels are read when written; store never rewrites a slice it has
// handed out, so an export can run while the person goes on working.
func FromDataset(ds *store.Dataset) Samples {
	snap := ds.Snapshot()
	h, w := ds.Size()
	transposed := ds.Transposed()
	return Samples{
		N: len(snap.Indices), H: h, W: w, Labels: snap.Labels, Index: snap.Indices,
		Pixels:    func(k int) []byte { return store.DisplayOrder(snap.Pixels(k), h, w, transposed, nil) },
		ClassName: ds.ClassName,
	}
}
