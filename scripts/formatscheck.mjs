// Reads a Parquet file idxlabel exported with readers written apart from ours: hyparquet (the
// Parquet file: schema, rows, key-value metadata) and pngjs (each image's PNG), and compares
// every label and pixel with what idxlabel says it wrote.
//
//   node scripts/formatscheck.mjs MODULES FILE.parquet WANT
//
// MODULES is the folder holding node_modules/hyparquet and node_modules/pngjs (make
// formats-check installs them there with npm). WANT holds what the file must hold: N, H and W
// (uint32, little-endian), N labels (int32; −1 for none), then N×H×W pixels. It prints
// "ok N H W <label feature type> <classes>" and exits 0, or says what differs and exits 1.
import { createRequire } from 'module'
import { readFileSync } from 'fs'
import { join } from 'path'
import { pathToFileURL } from 'url'

const [modules, file, wantPath] = process.argv.slice(2)
const hyparquet = await import(pathToFileURL(join(modules, 'node_modules/hyparquet/src/node.js')).href)
const { PNG } = createRequire(join(modules, 'package.json'))('pngjs')

const fail = (msg) => { console.error(`formatscheck: ${file}: ${msg}`); process.exit(1) }

const want = readFileSync(wantPath)
const n = want.readUInt32LE(0), h = want.readUInt32LE(4), w = want.readUInt32LE(8)
const labelsAt = 12, pixelsAt = 12 + 4 * n

const buf = await hyparquet.asyncBufferFromFile(file)
const meta = await hyparquet.parquetMetadataAsync(buf)
const hf = (meta.key_value_metadata || []).find((kv) => kv.key === 'huggingface')
if (!hf) fail('no "huggingface" key-value metadata')
const features = JSON.parse(hf.value).info.features
if (features.image._type !== 'Image') fail(`image feature ${JSON.stringify(features.image)}`)

// utf8: false keeps an unannotated BYTE_ARRAY (the PNG) as bytes, as pyarrow and datasets read it.
const rows = await hyparquet.parquetReadObjects({ file: buf, columns: ['image', 'label'], utf8: false })
if (rows.length !== n) fail(`${rows.length} rows, want ${n}`)
rows.forEach((row, k) => {
  const label = Number(row.label)
  if (label !== want.readInt32LE(labelsAt + 4 * k)) fail(`row ${k}: label ${label}, want ${want.readInt32LE(labelsAt + 4 * k)}`)
  if (row.image.path !== null && row.image.path !== undefined) fail(`row ${k}: path ${row.image.path}, want null`)
  const png = PNG.sync.read(Buffer.from(row.image.bytes))
  if (png.width !== w || png.height !== h) fail(`row ${k}: a ${png.width}×${png.height} image, want ${w}×${h}`)
  for (let p = 0; p < w * h; p++) {
    const [r, g, b, a] = png.data.subarray(4 * p, 4 * p + 4)
    const px = want[pixelsAt + k * w * h + p]
    if (r !== px || g !== px || b !== px || a !== 255) fail(`row ${k}, pixel ${p}: rgba ${r},${g},${b},${a}, want grey ${px}`)
  }
})
const label = features.label
console.log(`ok ${n} ${h} ${w} ${label._type} ${label.names ? label.names.length : '-'}`)
