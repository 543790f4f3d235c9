package sheets

// component is a set of 8-connected ink pixels of a bilevel image: its size, bounding box and
// the pixels furthest along the two diagonals (the corners of a roughly upright quadrilateral).
type component struct {
	n                      int
	minX, minY, maxX, maxY int
	// Extremes of x+y and x−y, and where they are.
	minSum, maxSum, minDiff, maxDiff int
	pMinSum, pMaxSum, pMinDiff       [2]int
	pMaxDiff                         [2]int
}

// components labels the 8-connected components of bin (w×h, row-major) by union–find and
// returns every component, and for each pixel the index of its component (−1 for no ink).
// Memory: 4 bytes a pixel.
func components(bin []bool, w, h int) ([]component, []int32) {
	parent := make([]int32, len(bin))
	var find func(int32) int32
	find = func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int32) {
		ra, rb := find(a), find(b)
		if ra != rb {
			if ra < rb {
				parent[rb] = ra
			} else {
				parent[ra] = rb
			}
		}
	}
	for y := range h {
		for x := range w {
			i := int32(y*w + x)
			if !bin[i] {
				parent[i] = -1
				continue
			}
			parent[i] = i
			if x > 0 && bin[i-1] {
				union(i, i-1)
			}
			if y > 0 {
				up := i - int32(w)
				if bin[up] {
					union(i, up)
				}
				if x > 0 && bin[up-1] {
					union(i, up-1)
				}
				if x < w-1 && bin[up+1] {
					union(i, up+1)
				}
			}
		}
	}
	// Every pixel points at its root, then parent becomes the labels.
	for i := range parent {
		if parent[i] >= 0 {
			parent[i] = find(int32(i))
		}
	}
	index := map[int32]int32{}
	var all []component
	for y := range h {
		for x := range w {
			i := int32(y*w + x)
			if parent[i] < 0 {
				continue
			}
			r := parent[i]
			k, ok := index[r]
			if !ok {
				k = int32(len(all))
				index[r] = k
				all = append(all, component{minX: x, minY: y, maxX: x, maxY: y,
					minSum: x + y, maxSum: x + y, minDiff: x - y, maxDiff: x - y,
					pMinSum: [2]int{x, y}, pMaxSum: [2]int{x, y}, pMinDiff: [2]int{x, y}, pMaxDiff: [2]int{x, y}})
			}
			c := &all[k]
			c.n++
			c.minX, c.maxX = min(c.minX, x), max(c.maxX, x)
			c.minY, c.maxY = min(c.minY, y), max(c.maxY, y)
			if s := x + y; s < c.minSum {
				c.minSum, c.pMinSum = s, [2]int{x, y}
			} else if s > c.maxSum {
				c.maxSum, c.pMaxSum = s, [2]int{x, y}
			}
			if d := x - y; d < c.minDiff {
				c.minDiff, c.pMinDiff = d, [2]int{x, y}
			} else if d > c.maxDiff {
				c.maxDiff, c.pMaxDiff = d, [2]int{x, y}
			}
		}
	}
	for i, r := range parent {
		if r >= 0 {
			parent[i] = index[r]
		}
	}
	return all, parent
}
