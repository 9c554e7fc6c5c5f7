//! The latency chart: one panel per corpus size, a group of bars per class (p50, with a
//! whisker up to p99) for each engine, on a logarithmic millisecond axis. Plain SVG text.

use crate::engines::ENGINES;
use serde_json::Value;
use std::fmt::Write;

const WIDTH: f64 = 1100.0;
const PANEL: f64 = 330.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 56.0;
const BOTTOM: f64 = 50.0;
const COLORS: [&str; 3] = ["#1f6feb", "#d97706", "#6b7280"];

/// The chart for every run in `results`.
pub fn svg(results: &Value) -> String {
    let runs: Vec<&Value> = results["runs"].as_array().into_iter().flatten().collect();
    let height = TOP + runs.len().max(1) as f64 * (PANEL + BOTTOM) + 10.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="20" font-size="15" font-weight="bold">Latency per query class: bar p50, whisker p99 (ms, log scale; lower is better)</text>"#
    );
    for (k, e) in ENGINES.iter().enumerate() {
        let x = WIDTH - RIGHT - 330.0 + k as f64 * 110.0;
        let _ = writeln!(
            s,
            r#"<rect x="{x}" y="8" width="12" height="12" fill="{}"/><text x="{}" y="19">{e}</text>"#,
            COLORS[k],
            x + 16.0
        );
    }
    for (p, run) in runs.iter().enumerate() {
        panel(&mut s, run, TOP + p as f64 * (PANEL + BOTTOM));
    }
    s.push_str("</svg>\n");
    s
}

fn panel(s: &mut String, run: &Value, y0: f64) {
    let classes: Vec<String> = run["engines"]["metagate"]["search"]["classes"]
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    let value = |e: &str, c: &str, k: &str| run["engines"][e]["search"]["classes"][c][k].as_f64().map(|us| us / 1000.0);
    let all: Vec<f64> = classes
        .iter()
        .flat_map(|c| ENGINES.iter().flat_map(move |e| [value(e, c, "p50_us"), value(e, c, "p99_us")]))
        .flatten()
        .filter(|v| *v > 0.0)
        .collect();
    if all.is_empty() {
        return;
    }
    let lo = all.iter().cloned().fold(f64::INFINITY, f64::min).log10().floor();
    let hi = all.iter().cloned().fold(0.0, f64::max).log10().ceil().max(lo + 1.0);
    let y_of = |ms: f64| y0 + PANEL - (ms.max(10f64.powf(lo)).log10() - lo) / (hi - lo) * PANEL;
    let plot_w = WIDTH - LEFT - RIGHT;
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="{}" font-weight="bold">{} documents</text>"#,
        y0 - 6.0,
        run["docs"].as_u64().unwrap_or(0)
    );
    for d in lo as i32..=hi as i32 {
        let y = y_of(10f64.powi(d));
        let label = 10f64.powi(d);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{label}</text>"##,
            WIDTH - RIGHT,
            LEFT - 6.0,
            y + 4.0
        );
    }
    let group = plot_w / classes.len().max(1) as f64;
    let bar = group * 0.8 / ENGINES.len() as f64;
    for (i, c) in classes.iter().enumerate() {
        let gx = LEFT + i as f64 * group + group * 0.1;
        for (k, e) in ENGINES.iter().enumerate() {
            let (Some(p50), Some(p99)) = (value(e, c, "p50_us"), value(e, c, "p99_us")) else { continue };
            let x = gx + k as f64 * bar;
            let (top, base) = (y_of(p50), y0 + PANEL);
            let _ = writeln!(
                s,
                r#"<rect x="{x:.1}" y="{top:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{e} {c}: p50 {p50:.3} ms, p99 {p99:.3} ms</title></rect>"#,
                bar - 2.0,
                base - top,
                COLORS[k]
            );
            let cx = x + (bar - 2.0) / 2.0;
            let _ =
                writeln!(s, r##"<line x1="{cx:.1}" x2="{cx:.1}" y1="{top:.1}" y2="{:.1}" stroke="#111"/>"##, y_of(p99));
        }
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{c}</text>"#,
            gx + group * 0.4,
            y0 + PANEL + 16.0
        );
    }
    let _ = writeln!(
        s,
        r##"<line x1="{LEFT}" x2="{LEFT}" y1="{y0}" y2="{}" stroke="#444"/><text x="14" y="{}" transform="rotate(-90 14 {})" text-anchor="middle">ms</text>"##,
        y0 + PANEL,
        y0 + PANEL / 2.0,
        y0 + PANEL / 2.0
    );
}
