package report

import (
	"html/template"
	"strconv"
)

// pageData is what the page template reads: the report and the names of the files written for
// it ("" where there is no image).
type pageData struct {
	Report
	Sheets        []string // per kind, its contact sheet
	Histogram     string
	SectionImages []string // per section, its image
}

// pageTemplate is index.html: inline CSS, no scripts, images by relative name. html/template
// escapes every string.
var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"score": func(f float64) string { return strconv.FormatFloat(f, 'f', 4, 64) },
	"other": func(i int) string {
		if i < 0 {
			return ""
		}
		return strconv.Itoa(i)
	},
	"add1": func(i int) int { return i + 1 },
	"alt": func(s Section) string {
		if s.Alt != "" {
			return s.Alt
		}
		return s.Title
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #202020; background: #fff; }
h1 { font-size: 1.6em; margin-bottom: 0.3em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #f2f2f2; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
img { max-width: 100%; height: auto; image-rendering: pixelated; border: 1px solid #ccc; }
p.note { color: #555; }
details { margin: 0.5em 0 1em; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<dl class="facts">{{range .Facts}}<dt>{{index . 0}}</dt><dd>{{index . 1}}</dd>{{end}}</dl>

<h2 id="summary">Summary</h2>
<table>
<tr><th>kind</th><th>flagged</th><th>shown</th><th>what it is</th></tr>
{{range .Kinds}}<tr><td><a href="#{{.Name}}">{{.Name}}</a></td><td class="n">{{.Flagged}}</td><td class="n">{{len .Findings}}</td><td>{{.Description}}</td></tr>
{{end}}</table>
{{$sheets := .Sheets}}{{range $k, $kind := .Kinds}}
<h2 id="{{$kind.Name}}">{{$kind.Name}}: {{$kind.Flagged}} flagged</h2>
<p>{{$kind.Description}}</p>
<p class="note">Score: {{$kind.ScoreNote}}</p>
{{with index $sheets $k}}<p><img src="{{.}}" alt="Contact sheet of the top {{len $kind.Findings}} {{$kind.Name}} findings, most severe first"></p>
<details><summary>The {{len $kind.Findings}} findings as a table</summary>
<table>
<tr><th>rank</th><th>index</th><th>other</th><th>label</th><th>suggested</th><th>score</th></tr>
{{range $n, $f := $kind.Findings}}<tr><td class="n">{{add1 $n}}</td><td class="n">{{$f.Index}}</td><td class="n">{{other $f.Other}}</td><td>{{$f.Label}}{{if $f.OtherLabel}} / {{$f.OtherLabel}}{{end}}</td><td>{{$f.Suggested}}</td><td class="n">{{score $f.Score}}</td></tr>
{{end}}</table>
</details>{{else}}<p>None found.</p>{{end}}
{{end}}
{{if .Classes}}<h2 id="classes">Class histogram</h2>
<p><img src="{{.Histogram}}" alt="Bar chart of the number of samples per class"></p>
<table>
<tr><th>class</th><th>samples</th></tr>
{{range .Classes}}<tr><td>{{.Class}}</td><td class="n">{{.Count}}</td></tr>
{{end}}</table>
{{end}}{{$images := .SectionImages}}{{range $n, $s := .Sections}}
<h2>{{$s.Title}}</h2>
{{with index $images $n}}<p><img src="{{.}}" alt="{{alt $s}}"></p>{{end}}
{{if $s.Caption}}<p>{{$s.Caption}}</p>{{end}}
{{with $s.Table}}<table>
<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>{{end}}
{{end}}
<p class="note">Written by idxlabel. This folder is self-contained: open index.html in any browser, no network needed.</p>
</body>
</html>
`))
