package plot

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"

	"idxlabel/suspect/confusion"
)

// ConfusionOptions tune a confusion chart.
type ConfusionOptions struct {
	// Name returns class c's name ("" for none); nil: classes are shown by number. A name the
	// font cannot draw (Go Regular: Latin, Greek, Cyrillic) is shown by number too.
	Name func(c int) string
	// HideDiagonal greys out the cells where the prediction agrees with the label and leaves
	// them out of the colour scale, so the confusions stand out.
	HideDiagonal bool
	// Figures adds the per-class figures to the right of each row: samples, out-of-fold
	// accuracy, suspects (see confusion.Class).
	Figures bool
	Style   Style
	// RowTitle and ColTitle title the axes ("": "given label" and "predicted class (out of
	// fold)", the model's matrix); FigureTitles head the figures' columns ("": "samples",
	// "accuracy", "suspects").
	RowTitle, ColTitle string
	FigureTitles       [3]string
}

// Confusion is a confusion chart: its layout, fixed when it is made, and its drawing. The cells
// are coloured from the background toward Style.Cell by log(1 + count) over the largest count
// shown; counts are written in cells wide enough for them. Rows are the given labels (Rows),
// columns the predicted classes (Cols), both titled.
type Confusion struct {
	// The row and column keys (ascending), the counts (Rows×Cols, read when drawn) and the
	// per-row figures (read when drawn).
	rowKeys, colKeys []int
	counts           func() [][]int
	classes          func() []confusion.Class
	opts             ConfusionOptions
	t                *text
	rows             []string // row labels
	cols             []string // column labels
	cell             int      // cell side in pixels
	gx               int      // left of the cell grid
	gy               int      // top of the cell grid
	upCol            bool     // column labels drawn upward (some are wider than a cell)
	step             int      // every step-th row and column is labelled (1 unless cells are lower than the text)
	fig              int      // width of one figures column
	w, h             int
}

// Pixel sizes of the chart's parts. maxGrid bounds the side of the cell grid, so that the
// chart's image stays small whatever the number of classes (cnn.MaxClasses is 1024: 16-pixel
// cells would make a 16,500-pixel square, 1.1 GB).
const (
	chartPad  = 12
	figureGap = 10
	maxGrid   = 2048
)

// NewConfusion lays out the chart of m (a snapshot of its counts is taken when drawn). Cells are
// 40 pixels for up to 12 classes and smaller for more (at least 16, or less when that would make
// the grid wider than maxGrid, 2048 pixels: at least 2). When cells are lower than a line of
// text, every k-th row and column is labelled (and has its figures), k the fewest that keeps
// the labels apart; cells too small for their count are coloured only.
func NewConfusion(m *confusion.Matrix, opts ConfusionOptions) *Confusion {
	return newChart(m.Rows, m.Cols, m.Counts, m.Classes, opts)
}

// NewTable lays out the chart of a fixed table of counts (Rows×Cols: counts[r][k] for row key
// rows[r] and column key cols[k], both ascending; two annotators' labels of the same samples),
// as NewConfusion does; its per-row figures are each row's samples, its diagonal cell's share
// of them and the rest. The table is not copied: it must not change once handed.
func NewTable(rows, cols []int, counts [][]int, opts ConfusionOptions) *Confusion {
	classes := func() []confusion.Class {
		out := make([]confusion.Class, len(rows))
		for r, l := range rows {
			cl := confusion.Class{Label: l}
			for k, n := range counts[r] {
				cl.Samples += n
				if cols[k] == l {
					cl.Correct = n
				}
			}
			cl.Suspects = cl.Samples - cl.Correct
			out[r] = cl
		}
		return out
	}
	return newChart(rows, cols, func() [][]int { return counts }, classes, opts)
}

// newChart lays out the chart of the row and column keys, its counts and figures read when drawn.
func newChart(rowKeys, colKeys []int, counts func() [][]int, classes func() []confusion.Class, opts ConfusionOptions) *Confusion {
	c := &Confusion{rowKeys: rowKeys, colKeys: colKeys, counts: counts, classes: classes, opts: opts, t: newText(12)}
	if c.opts.RowTitle == "" {
		c.opts.RowTitle = "given label"
	}
	if c.opts.ColTitle == "" {
		c.opts.ColTitle = "predicted class (out of fold)"
	}
	for f, d := range [3]string{"samples", "accuracy", "suspects"} {
		if c.opts.FigureTitles[f] == "" {
			c.opts.FigureTitles[f] = d
		}
	}
	name := func(k int) string {
		if opts.Name != nil {
			if s := opts.Name(k); s != "" && c.t.has(s) {
				return s
			}
		}
		return strconv.Itoa(k)
	}
	for _, l := range rowKeys {
		c.rows = append(c.rows, name(l))
	}
	for _, k := range colKeys {
		c.cols = append(c.cols, name(k))
	}
	n := max(len(rowKeys), len(colKeys))
	c.cell = 40
	if n > 12 {
		c.cell = max(16, 480/n)
	}
	if n*c.cell > maxGrid {
		c.cell = max(2, maxGrid/n)
	}
	c.step = 1
	if lh := c.t.height + 2; c.cell < lh {
		c.step = (lh + c.cell - 1) / c.cell
	}
	rowW, colW := 0, 0
	for _, s := range c.rows {
		rowW = max(rowW, c.t.width(s))
	}
	for _, s := range c.cols {
		colW = max(colW, c.t.width(s))
		c.upCol = c.upCol || c.t.width(s) > c.cell*c.step-4
	}
	colH := c.t.height
	if c.upCol {
		colH = colW
	}
	th := c.t.height
	// Left to right: padding, the row axis title (upward), row labels, the grid, figures.
	c.gx = chartPad + th + 6 + rowW + 6
	// Top to bottom: padding, the column axis title, column labels, the grid, the scale.
	c.gy = chartPad + th + 6 + colH + 6
	c.w = c.gx + len(colKeys)*c.cell + chartPad
	if opts.Figures {
		c.fig = max(c.t.width("100.00%"), c.t.width(c.opts.FigureTitles[0]), c.t.width(c.opts.FigureTitles[1]), c.t.width(c.opts.FigureTitles[2])) + figureGap
		c.w += 3 * c.fig
	}
	c.w = max(c.w, chartPad*2+c.t.width(c.colTitle()))
	c.h = c.gy + len(rowKeys)*c.cell + 10 + th + 14 + chartPad
	return c
}

func (c *Confusion) colTitle() string { return c.opts.ColTitle }

// Size returns the chart's width and height in pixels.
func (c *Confusion) Size() (w, h int) { return c.w, c.h }

// CellAt returns the given label and predicted class of the cell at pixel (x, y) of the chart
// as drawn, or false outside the cells.
func (c *Confusion) CellAt(x, y int) (label, class int, ok bool) {
	if x < c.gx || y < c.gy {
		return 0, 0, false
	}
	col, row := (x-c.gx)/c.cell, (y-c.gy)/c.cell
	if col >= len(c.colKeys) || row >= len(c.rowKeys) {
		return 0, 0, false
	}
	return c.rowKeys[row], c.colKeys[col], true
}

// CellRect returns the pixels of the cell of label and class in the chart as drawn (its grid
// lines included), or false when either has no row or column.
func (c *Confusion) CellRect(label, class int) (image.Rectangle, bool) {
	r, ok := slices.BinarySearch(c.rowKeys, label)
	k, found := slices.BinarySearch(c.colKeys, class)
	if !ok || !found {
		return image.Rectangle{}, false
	}
	x, y := c.gx+k*c.cell, c.gy+r*c.cell
	return image.Rect(x, y, x+c.cell+1, y+c.cell+1), true
}

// Draw returns the chart as an image of Size().
func (c *Confusion) Draw() *image.RGBA {
	s := c.opts.Style
	img := image.NewRGBA(image.Rect(0, 0, c.w, c.h))
	fill(img, s.Background)
	counts := c.counts()
	diag := func(r, k int) bool { return c.rowKeys[r] == c.colKeys[k] }
	top := 0
	for r, row := range counts {
		for k, n := range row {
			if !(c.opts.HideDiagonal && diag(r, k)) {
				top = max(top, n)
			}
		}
	}
	th := c.t.height
	// Axis titles.
	c.t.draw(img, c.gx, chartPad, c.colTitle(), s.Text)
	rowTitle := c.opts.RowTitle
	c.t.drawUp(img, chartPad, c.gy+min(len(c.rowKeys)*c.cell, c.h)/2+c.t.width(rowTitle)/2, rowTitle, s.Text)
	// Column labels.
	for k, name := range c.cols {
		if k%c.step != 0 {
			continue
		}
		x := c.gx + k*c.cell
		if c.upCol {
			c.t.drawUp(img, x+(c.cell-th)/2, c.gy-6, name, s.Text)
		} else {
			c.t.draw(img, x+(c.cell-c.t.width(name))/2, c.gy-6-th, name, s.Text)
		}
	}
	// Rows: label, cells, figures.
	classes := c.classes()
	for r, row := range counts {
		y := c.gy + r*c.cell
		labelled := r%c.step == 0
		if name := c.rows[r]; labelled {
			c.t.draw(img, c.gx-6-c.t.width(name), y+(c.cell-th)/2, name, s.Text)
		}
		for k, n := range row {
			x := c.gx + k*c.cell
			bg, fg := s.Background, s.Text
			switch {
			case c.opts.HideDiagonal && diag(r, k):
				bg = s.Faint
			case n > 0 && top > 0:
				t := math.Log1p(float64(n)) / math.Log1p(float64(top))
				bg = mixRGB(s.Background, s.Cell, 0.1+0.9*t)
				if t > 0.55 {
					fg = s.Background
				}
			}
			rect(img, x, y, x+c.cell, y+c.cell, bg)
			if !(c.opts.HideDiagonal && diag(r, k)) && n > 0 {
				txt := strconv.Itoa(n)
				if w := c.t.width(txt); w <= c.cell-4 {
					c.t.draw(img, x+(c.cell-w)/2, y+(c.cell-th)/2, txt, fg)
				}
			}
		}
		if c.opts.Figures && labelled {
			cl := classes[r]
			fx := c.gx + len(c.colKeys)*c.cell + figureGap
			acc := "–"
			if cl.Samples > 0 {
				acc = fmt.Sprintf("%.2f%%", 100*cl.Accuracy())
			}
			for f, txt := range []string{strconv.Itoa(cl.Samples), acc, strconv.Itoa(cl.Suspects)} {
				c.t.draw(img, fx+(f+1)*c.fig-figureGap-c.t.width(txt), y+(c.cell-th)/2, txt, s.Text)
			}
		}
	}
	if c.opts.Figures {
		fx := c.gx + len(c.colKeys)*c.cell + figureGap
		for f, txt := range c.opts.FigureTitles {
			c.t.draw(img, fx+(f+1)*c.fig-figureGap-c.t.width(txt), c.gy-6-th, txt, s.Text)
		}
	}
	// Grid lines.
	gw, gh := len(c.colKeys)*c.cell, len(c.rowKeys)*c.cell
	for k := 0; k <= len(c.colKeys); k++ {
		rect(img, c.gx+k*c.cell, c.gy, c.gx+k*c.cell+1, c.gy+gh+1, s.Faint)
	}
	for r := 0; r <= len(c.rowKeys); r++ {
		rect(img, c.gx, c.gy+r*c.cell, c.gx+gw+1, c.gy+r*c.cell+1, s.Faint)
	}
	// The colour scale: a bar from 0 to the largest count shown.
	sy := c.gy + gh + 10
	bar := max(60, min(gw, 240))
	c.t.draw(img, c.gx, sy, "0", s.Text)
	bx := c.gx + c.t.width("0") + 6
	for x := range bar {
		t := float64(x) / float64(bar-1)
		rect(img, bx+x, sy+2, bx+x+1, sy+th-2, mixRGB(s.Background, s.Cell, 0.1+0.9*t))
	}
	scale := strconv.Itoa(top) + " (log scale)"
	if c.opts.HideDiagonal {
		scale += ", diagonal hidden"
	}
	c.t.draw(img, bx+bar+6, sy, scale, s.Text)
	return img
}

// rect fills [x0, x1)×[y0, y1) with c, clipped to dst.
func rect(dst *image.RGBA, x0, y0, x1, y1 int, c color.RGBA) {
	r := image.Rect(x0, y0, x1, y1).Intersect(dst.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		p := dst.Pix[dst.PixOffset(r.Min.X, y):]
		for x := 0; x < r.Dx(); x++ {
			p[4*x], p[4*x+1], p[4*x+2], p[4*x+3] = c.R, c.G, c.B, 255
		}
	}
}
