package plot

// View is a pan and zoom of the map onto an image of W×H pixels: the map point (CX, CY) is at
// the image's centre and one map unit spans Scale pixels. Map y grows downward, as pixel y does.
type View struct {
	CX, CY float64 // map coordinates at the image's centre
	Scale  float64 // pixels per map unit (> 0)
	W, H   int     // the image's size in pixels
}

// ToPixel returns the pixel position of map point (x, y) (pixel centres at half-integers: pixel
// (i, j) covers [i, i+1)×[j, j+1)).
func (v View) ToPixel(x, y float32) (px, py float64) {
	return (float64(x)-v.CX)*v.Scale + float64(v.W)/2, (float64(y)-v.CY)*v.Scale + float64(v.H)/2
}

// ToMap returns the map point at pixel position (px, py); the inverse of ToPixel.
func (v View) ToMap(px, py float64) (x, y float32) {
	return float32((px-float64(v.W)/2)/v.Scale + v.CX), float32((py-float64(v.H)/2)/v.Scale + v.CY)
}

// Zoom returns the view scaled by factor (> 1 zooms in) about pixel (px, py), which keeps
// showing the same map point.
func (v View) Zoom(px, py, factor float64) View {
	x, y := v.ToMap(px, py)
	v.Scale *= factor
	v.CX = float64(x) - (px-float64(v.W)/2)/v.Scale
	v.CY = float64(y) - (py-float64(v.H)/2)/v.Scale
	return v
}

// Pan returns the view moved so the map follows the pointer by (dx, dy) pixels.
func (v View) Pan(dx, dy float64) View {
	v.CX -= dx / v.Scale
	v.CY -= dy / v.Scale
	return v
}

// Fit returns the view of a W×H image that shows the map's whole extent with margin pixels on
// each side (a map of one point, or none, is shown at scale 1 around it).
func (m *Map) Fit(w, h, margin int) View {
	v := View{W: w, H: h, Scale: 1}
	if m.n == 0 {
		return v
	}
	v.CX, v.CY = float64(m.minX+m.maxX)/2, float64(m.minY+m.maxY)/2
	sx, sy := float64(m.maxX-m.minX), float64(m.maxY-m.minY)
	aw, ah := float64(max(1, w-2*margin)), float64(max(1, h-2*margin))
	if sx > 0 || sy > 0 {
		v.Scale = min(aw/max(sx, 1e-12), ah/max(sy, 1e-12))
	}
	return v
}
