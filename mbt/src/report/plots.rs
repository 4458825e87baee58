//! The report's plots, drawn with `plotters` on its SVG backend into strings that the page
//! inlines: [`lines`] (series over time) and [`bars`] (how often each name was exercised, on a
//! log scale so that rare and never-exercised names stand out). No font files are read: text
//! is SVG `<text>` that the browser lays out.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Fonts of the plots (the page's own sans-serif).
const FONT: &str = "sans-serif";
/// Width of a plot in pixels (the page scales it to its column).
pub const WIDTH: u32 = 560;
const HEIGHT: u32 = 300;
/// Series with at most this many points get a marker on each.
const MARKED_POINTS: usize = 40;
/// Height of one bar's row.
const ROW: u32 = 15;

/// The palette: the series' colors, in order.
pub const COLORS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(255, 160, 20),
    RGBColor(44, 160, 44),
];
const GRID: RGBColor = RGBColor(232, 232, 232);
const AXIS: RGBColor = RGBColor(120, 120, 120);
const TRIED: RGBColor = RGBColor(158, 202, 225);
const SUCCEEDED: RGBColor = RGBColor(49, 130, 189);
const NEVER: RGBColor = RGBColor(200, 30, 30);

/// One line of a line plot.
pub struct Series {
    pub name: String,
    pub color: RGBColor,
    /// (x, y) in x order.
    pub points: Vec<(f64, f64)>,
}

/// One bar of a bar chart: how often a name was tried and how often it succeeded.
pub struct Bar {
    pub name: String,
    pub tried: u64,
    pub ok: u64,
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// Draws on an SVG canvas of `size` and returns the SVG text.
fn svg(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<()>,
) -> Result<String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE)?;
        draw(&root)?;
        root.present()?;
    }
    Ok(text)
}

/// A line plot of `series` with the x axis `x_desc` and the y axis `y_desc`.
pub fn lines(title: &str, x_desc: &str, y_desc: &str, series: &[Series]) -> Result<String> {
    let points = || series.iter().flat_map(|s| s.points.iter());
    let x_max = points().map(|p| p.0).fold(0.0, f64::max).max(1e-3);
    let y_max = points().map(|p| p.1).fold(0.0, f64::max).max(1.0) * 1.08;
    svg((WIDTH, HEIGHT), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, (FONT, 16))
            .margin(10)
            .x_label_area_size(38)
            .y_label_area_size(56)
            .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_labels(8)
            .y_labels(6)
            .x_label_formatter(&|x| short_number(*x))
            .y_label_formatter(&|y| short_number(*y))
            .label_style((FONT, 12))
            .axis_desc_style((FONT, 12))
            .axis_style(AXIS)
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .draw()?;
        for s in series {
            let color = s.color;
            chart
                .draw_series(LineSeries::new(
                    s.points.iter().copied(),
                    color.stroke_width(2),
                ))?
                .label(s.name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2))
                });
            // Few points (a short campaign): each one shows, even a single one.
            if s.points.len() <= MARKED_POINTS {
                let dots = s.points.iter().map(|&p| Circle::new(p, 3, color.filled()));
                chart.draw_series(dots)?;
            }
        }
        if series.len() > 1 {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .label_font((FONT, 12))
                .background_style(WHITE.mix(0.85))
                .border_style(GRID)
                .draw()?;
        }
        Ok(())
    })
}

/// A horizontal bar chart, one row per bar in the given order: the light bar is how often the
/// name was tried, the dark one how often it succeeded; a name never tried says so in red.
pub fn bars(title: &str, bars: &[Bar]) -> Result<String> {
    let n = bars.len().max(1) as i32;
    let longest = bars.iter().map(|b| b.name.len()).max().unwrap_or(4);
    let label_width = (longest as u32 * 7 + 14).clamp(60, 220);
    // Room right of the longest bar for its count.
    let x_max = bars.iter().map(|b| b.tried).max().unwrap_or(1).max(1) as f64 * 4.0;
    let height = 70 + ROW * n as u32;
    svg((WIDTH, height), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, (FONT, 16))
            .margin(10)
            .x_label_area_size(24)
            .y_label_area_size(label_width)
            .build_cartesian_2d((0.5..x_max).log_scale(), (0..n).into_segmented())?;
        // Row 0 is at the bottom: the first bar goes on top.
        let row = |i: usize| n - 1 - i as i32;
        let name_of = |v: &SegmentValue<i32>| match v {
            SegmentValue::CenterOf(y) if (0..n).contains(y) => bars
                .get((n - 1 - y) as usize)
                .map_or(String::new(), |b| b.name.clone()),
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n as usize)
            .y_label_formatter(&name_of)
            .x_labels(8)
            .x_label_formatter(&|x| short_number(*x))
            .label_style((FONT, 11))
            .axis_style(AXIS)
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .draw()?;
        let rect = |i: usize, value: u64, color: RGBColor, margin: u32| {
            let y = row(i);
            let mut r = Rectangle::new(
                [
                    (0.5, SegmentValue::Exact(y)),
                    (value as f64, SegmentValue::Exact(y + 1)),
                ],
                color.filled(),
            );
            r.set_margin(margin, margin, 0, 0);
            r
        };
        let drawn = bars.iter().enumerate().filter(|(_, b)| b.tried > 0);
        chart.draw_series(drawn.clone().map(|(i, b)| rect(i, b.tried, TRIED, 2)))?;
        let succeeded = drawn.clone().filter(|(_, b)| b.ok > 0);
        chart.draw_series(succeeded.map(|(i, b)| rect(i, b.ok, SUCCEEDED, 4)))?;
        let count_style = TextStyle::from((FONT, 10).into_font())
            .color(&AXIS)
            .pos(Pos::new(HPos::Left, VPos::Center));
        chart.draw_series(drawn.map(|(i, b)| {
            Text::new(
                format!(" {}", short_number(b.tried as f64)),
                (b.tried as f64, SegmentValue::CenterOf(row(i))),
                count_style.clone(),
            )
        }))?;
        let never_style = TextStyle::from((FONT, 11).into_font())
            .color(&NEVER)
            .pos(Pos::new(HPos::Left, VPos::Center));
        let never = bars.iter().enumerate().filter(|(_, b)| b.tried == 0);
        chart.draw_series(never.map(|(i, _)| {
            Text::new(
                "never exercised",
                (0.6, SegmentValue::CenterOf(row(i))),
                never_style.clone(),
            )
        }))?;
        Ok(())
    })
}

/// `x` for an axis label: `950`, `1.5k`, `12M`; fractions only below 10.
pub fn short_number(x: f64) -> String {
    let a = x.abs();
    let (value, unit) = if a >= 1e9 {
        (x / 1e9, "G")
    } else if a >= 1e6 {
        (x / 1e6, "M")
    } else if a >= 1e3 {
        (x / 1e3, "k")
    } else {
        (x, "")
    };
    let text = if value.abs() >= 10.0 || value.fract().abs() < 1e-9 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    };
    format!("{text}{unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(short_number(0.0), "0");
        assert_eq!(short_number(2.5), "2.5");
        assert_eq!(short_number(950.0), "950");
        assert_eq!(short_number(1500.0), "1.5k");
        assert_eq!(short_number(12_000_000.0), "12M");
    }

    #[test]
    fn plots_are_svg_with_their_text() {
        let line = lines(
            "Rounds",
            "seconds",
            "rounds",
            &[Series {
                name: "rounds".into(),
                color: COLORS[0],
                points: vec![(0.0, 0.0), (1.0, 10.0), (2.0, 30.0)],
            }],
        )
        .unwrap();
        assert!(
            line.starts_with("<svg") && line.contains("Rounds"),
            "{line}"
        );
        assert!(line.contains("<polyline"), "{line}");
        let bar = bars(
            "Operations",
            &[
                Bar {
                    name: "bvadd".into(),
                    tried: 40,
                    ok: 39,
                },
                Bar {
                    name: "bvcomp".into(),
                    tried: 0,
                    ok: 0,
                },
            ],
        )
        .unwrap();
        assert!(bar.contains("bvadd") && bar.contains("bvcomp"), "{bar}");
        assert_eq!(bar.matches("never exercised").count(), 1, "{bar}");
    }
}
