//! SVG line plots of time series and log–log convergence plots (plotters).
use anyhow::Result;

/// Renders `y(t)` curves into an SVG line plot.
pub fn svg_plot(title: &str, xlabel: &str, series: &[(&str, &[f64], &[f64])]) -> Result<String> {
    use plotters::prelude::*;
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (900, 500)).into_drawing_area();
        root.fill(&WHITE)?;
        let (mut xmin, mut xmax, mut ymin, mut ymax) = (
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        );
        for (_, x, y) in series {
            for (&a, &b) in x.iter().zip(y.iter()) {
                if a.is_finite() && b.is_finite() {
                    xmin = xmin.min(a);
                    xmax = xmax.max(a);
                    ymin = ymin.min(b);
                    ymax = ymax.max(b);
                }
            }
        }
        if !xmin.is_finite() {
            (xmin, xmax, ymin, ymax) = (0.0, 1.0, 0.0, 1.0);
        }
        if xmax <= xmin {
            xmax = xmin + 1.0;
        }
        let pad = 0.05
            * (ymax - ymin)
                .abs()
                .max(1e-300 + ymax.abs() * 1e-6)
                .max(1e-300);
        let (ymin, ymax) = if ymax - ymin <= 0.0 {
            (ymin - pad.max(1e-12), ymax + pad.max(1e-12))
        } else {
            (ymin - pad, ymax + pad)
        };
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(xmin..xmax, ymin..ymax)?;
        chart
            .configure_mesh()
            .x_desc(xlabel)
            .y_label_formatter(&|v| format!("{v:.3e}"))
            .draw()?;
        for (k, (name, x, y)) in series.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    x.iter().copied().zip(y.iter().copied()),
                    color.stroke_width(2),
                ))?
                .label(*name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
    }
    Ok(buf)
}

/// Renders a log–log convergence plot of error vs mesh size with one series per field.
pub fn svg_loglog(title: &str, series: &[(&str, &[f64], &[f64])]) -> Result<String> {
    let logs: Vec<(String, Vec<f64>, Vec<f64>)> = series
        .iter()
        .map(|(n, x, y)| {
            (
                n.to_string(),
                x.iter().map(|v| v.log10()).collect(),
                y.iter().map(|v| v.log10()).collect(),
            )
        })
        .collect();
    let refs: Vec<(&str, &[f64], &[f64])> = logs
        .iter()
        .map(|(n, x, y)| (n.as_str(), x.as_slice(), y.as_slice()))
        .collect();
    svg_plot(title, "log10(h)   (y: log10(error))", &refs)
}
