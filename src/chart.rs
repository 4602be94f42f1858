//! Chart helpers shared by reports (plotters): one drawing into SVG and
//! PNG, a font when one exists, the grid and value bounds.
//!
//! Text needs a TrueType font: `$TENGEN_FONT`, else a common system font
//! (DejaVu Sans, Liberation Sans, ...). Without one the charts are drawn
//! without their text, and the numbers stay in the reports' text files.

use std::io;
use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;

/// Where a TrueType font is looked for when `$TENGEN_FONT` is not set.
const FONT_PATHS: [&str; 8] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Registers the charts' font once; false when none was found.
pub fn has_font() -> bool {
    static FONT: OnceLock<bool> = OnceLock::new();
    *FONT.get_or_init(|| {
        let from_env = std::env::var_os("TENGEN_FONT").map(std::path::PathBuf::from);
        let candidates = from_env
            .into_iter()
            .chain(FONT_PATHS.iter().map(std::path::PathBuf::from));
        for path in candidates {
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            // Registered once for the life of the process.
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return true;
            }
        }
        false
    })
}

/// Draws one chart into `<stem>.svg` and `<stem>.png`.
pub fn both(
    stem: &Path,
    size: (u32, u32),
    draw_svg: impl Fn(DrawingArea<SVGBackend, Shift>, bool) -> io::Result<()>,
    draw_png: impl Fn(DrawingArea<BitMapBackend, Shift>, bool) -> io::Result<()>,
) -> io::Result<()> {
    let text = has_font();
    let svg = stem.with_extension("svg");
    draw_svg(SVGBackend::new(&svg, size).into_drawing_area(), text)?;
    let png = stem.with_extension("png");
    draw_png(BitMapBackend::new(&png, size).into_drawing_area(), text)
}

pub fn io_err(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(e.to_string())
}

pub fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.05).max(1e-9 + lo.abs() * 1e-6);
    (lo - pad, hi + pad)
}

/// The grid, with axis labels when there is a font.
pub fn mesh<DB: DrawingBackend, X, Y>(
    chart: &mut ChartContext<DB, Cartesian2d<X, Y>>,
    text: bool,
    x_desc: &str,
    y_desc: &str,
) -> io::Result<()>
where
    X: Ranged + ValueFormatter<<X as Ranged>::ValueType>,
    Y: Ranged + ValueFormatter<<Y as Ranged>::ValueType>,
{
    if !text {
        // Labels need a font: a frame alone.
        let area = chart.plotting_area().strip_coord_spec();
        let (w, h) = area.dim_in_pixel();
        return area
            .draw(&Rectangle::new(
                [(0, 0), (w as i32 - 1, h as i32 - 1)],
                BLACK.stroke_width(1),
            ))
            .map_err(io_err);
    }
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .draw()
        .map_err(io_err)
}

/// The legend (when there is a font) and the end of the drawing.
pub fn finish<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    root: &DrawingArea<DB, Shift>,
    text: bool,
) -> io::Result<()> {
    if text {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(io_err)?;
    }
    root.present().map_err(io_err)
}

/// A chart builder on `root` with the shared margins, and the title and
/// label areas when there is a font.
pub fn builder<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    title: &str,
    text: bool,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(root);
    builder.margin(15);
    if text {
        builder
            .caption(title, ("sans-serif", 20))
            .x_label_area_size(40)
            .y_label_area_size(80);
    }
    builder
}
