package sheets

// For the external tests: a fine read's ink placed as on the page's pixels, and made a sample.
var (
	AsOnPagePixels = asOnPagePixels
	SampleOf       = func(bin []bool, w, h int) []byte { return sample(bin, w, h, Options{}) }
)
