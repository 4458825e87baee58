//! The report's plots, as strings that the page inlines: [`lines`] (series over time), drawn
//! with `plotters` on its SVG backend (no font files are read: text is SVG `<text>` that the
//! browser lays out), and [`bars`] (how often each name was exercised, on a log scale so that
//! rare and never-exercised names stand out), an HTML table whose bars are styled spans (the
//! page's style sheet draws them), so that names and numbers are text at the page's size.

use super::esc;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::fmt::Write as _;

/// Fonts of the plots (the page's own sans-serif).
const FONT: &str = "sans-serif";
/// Width of a plot in pixels (the page scales it to its column).
pub const WIDTH: u32 = 560;
const HEIGHT: u32 = 300;
/// Series with at most this many points get a marker on each.
const MARKED_POINTS: usize = 40;

/// The palette: the series' colors, in order.
pub const COLORS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(255, 160, 20),
    RGBColor(44, 160, 44),
];
const GRID: RGBColor = RGBColor(232, 232, 232);
const AXIS: RGBColor = RGBColor(120, 120, 120);

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

/// Groups of at least this many bars repeat their scale below the bars.
const SCALE_BELOW: usize = 25;

/// The decades of a log scale from 1 that holds `max` (at least one).
fn decades(max: u64) -> u32 {
    let mut decades = 1;
    while 10f64.powi(decades as i32) < max as f64 {
        decades += 1;
    }
    decades
}

/// One group of bars as an HTML table, one row per bar in the given order: the name, the bar,
/// how often it was tried and how often it succeeded. The bars are on a log scale of whole
/// decades from 1 (ticks above the bars, and below them too in a long group, with a grid
/// line per decade); the light bar is how often the name was tried, the dark one how often
/// it succeeded. A name never tried shows a red mark at zero that says so. Not SVG: names
/// and numbers are the page's text, at its size, never cut.
pub fn bars(title: &str, bars: &[Bar]) -> String {
    let decades = decades(bars.iter().map(|b| b.tried).max().unwrap_or(0));
    let width = |n: u64| match n {
        0 => 0.0,
        n => 100.0 * (n as f64).log10() / decades as f64,
    };
    let n_never = bars.iter().filter(|b| b.tried == 0).count();
    let never = match n_never {
        0 => "all exercised".to_string(),
        n => format!("{n} never exercised"),
    };
    let scale = scale(decades);
    let mut html = format!(
        "<figure class=\"bars\">\n<figcaption>{} <span>{} names, {never}</span></figcaption>\n\
         <table class=\"bars\" style=\"--decades:{decades}\">\n<thead>{scale}</thead>\n<tbody>\n",
        esc(title),
        bars.len()
    );
    for b in bars {
        let name = esc(&b.name);
        if b.tried == 0 {
            let _ = writeln!(
                html,
                "<tr class=\"never\" title=\"{name}: never exercised\"><td class=\"name\"><code>{name}</code></td>\
                 <td class=\"track\"><span class=\"zero\"></span><span class=\"never\">never exercised</span></td>\
                 <td class=\"num\">0</td><td class=\"num\">0</td></tr>"
            );
            continue;
        }
        let ok = match b.ok {
            0 => String::new(),
            n => format!(
                "<span class=\"ok\" style=\"width:{:.2}%\"></span>",
                width(n)
            ),
        };
        let _ = writeln!(
            html,
            "<tr title=\"{name}: tried {tried}, succeeded {ok_n}\"><td class=\"name\"><code>{name}</code></td>\
             <td class=\"track\"><span class=\"tried\" style=\"width:{w:.2}%\"></span>{ok}</td>\
             <td class=\"num\">{tried}</td><td class=\"num\">{ok_n}</td></tr>",
            tried = b.tried,
            ok_n = b.ok,
            w = width(b.tried),
        );
    }
    html.push_str("</tbody>\n");
    if bars.len() >= SCALE_BELOW {
        let _ = writeln!(html, "<tfoot>{scale}</tfoot>");
    }
    html.push_str("</table>\n</figure>");
    html
}

/// The scale's row: a tick per decade over the bars' column, and the numbers' headings.
fn scale(decades: u32) -> String {
    let mut ticks = String::new();
    for d in 0..=decades {
        let edge = match d {
            0 => " first",
            d if d == decades => " last",
            _ => "",
        };
        let _ = write!(
            ticks,
            "<span class=\"tick{edge}\" style=\"left:{:.2}%\">{}</span>",
            100.0 * d as f64 / decades as f64,
            short_number(10f64.powi(d as i32))
        );
    }
    format!(
        "<tr class=\"scale\"><th></th><th class=\"track\">{ticks}</th>\
         <th class=\"num\">tried</th><th class=\"num\">succeeded</th></tr>"
    )
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
    }

    #[test]
    fn the_scale_holds_the_largest_count() {
        assert_eq!(decades(0), 1);
        assert_eq!(decades(10), 1);
        assert_eq!(decades(11), 2);
        assert_eq!(decades(17_000), 5);
    }

    /// The bars are rows of text with widths on the log scale, the scale's ticks above them,
    /// and a name never tried shows at zero.
    #[test]
    fn bars_are_rows_on_a_log_scale() {
        let bar = bars(
            "Operations <core>",
            &[
                Bar {
                    name: "bvadd".into(),
                    tried: 100,
                    ok: 10,
                },
                Bar {
                    name: "bvcomp".into(),
                    tried: 0,
                    ok: 0,
                },
                Bar {
                    name: "bvmul".into(),
                    tried: 1,
                    ok: 0,
                },
            ],
        );
        assert!(bar.contains("Operations &lt;core&gt; <span>3 names, 1 never exercised</span>"));
        // Two decades: 100 fills the track, 10 reaches half of it, 1 is at zero (the page
        // gives every bar a minimum width).
        assert!(
            bar.contains("<span class=\"tried\" style=\"width:100.00%\">"),
            "{bar}"
        );
        assert!(
            bar.contains("<span class=\"ok\" style=\"width:50.00%\">"),
            "{bar}"
        );
        assert!(
            bar.contains("<span class=\"tried\" style=\"width:0.00%\">"),
            "{bar}"
        );
        assert_eq!(bar.matches("<span class=\"ok\"").count(), 1, "{bar}");
        for (tick, left) in [("1", "0.00"), ("10", "50.00"), ("100", "100.00")] {
            assert!(
                bar.contains(&format!("style=\"left:{left}%\">{tick}</span>")),
                "{bar}"
            );
        }
        let names: Vec<usize> = ["bvadd", "bvcomp", "bvmul"]
            .iter()
            .map(|n| bar.find(&format!("<code>{n}</code>")).expect(n))
            .collect();
        assert!(names.windows(2).all(|w| w[0] < w[1]), "in the given order");
        assert!(bar.contains("<tr class=\"never\" title=\"bvcomp: never exercised\">"));
        let never = "<span class=\"never\">never exercised</span>";
        assert_eq!(bar.matches(never).count(), 1, "{bar}");
        assert!(
            !bar.contains("<tfoot>"),
            "a short group has its scale above only"
        );
        let long: Vec<Bar> = (0..SCALE_BELOW as u64)
            .map(|k| Bar {
                name: format!("op{k}"),
                tried: k,
                ok: k,
            })
            .collect();
        assert!(bars("long", &long).contains("<tfoot>"));
    }
}
