//! SVG pictures of interconnection patterns in the style of seed 001 Figs. 1–7: round
//! inner boxes, black junction dots, port lines (solid for power ports, dashed for state
//! ports) and the rectangular outer box with its outer ports.
//!
//! Following the seed's shorthand, a port name equal to its junction's name is written
//! only once, at the junction.
//!
//! Layout: boxes on an ellipse (one box: the centre); each junction starts at the mean of
//! its boxes, junctions with an outer port are pulled towards the outer box, then a few
//! relaxation sweeps push dots apart and out of the boxes. The result is deterministic.
use std::fmt::Write;

use crate::language::interface::PortKind;
use crate::language::pattern::Pattern;

const W: f64 = 720.0;
const H: f64 = 520.0;
const MARGIN: f64 = 30.0;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn box_radius(name: &str) -> f64 {
    (14.0 + 4.5 * name.chars().count() as f64).clamp(26.0, 60.0)
}

/// Renders a pattern as a standalone SVG document.
pub fn pattern_svg(p: &Pattern) -> String {
    let (cx, cy) = (W / 2.0, H / 2.0);
    let nb = p.boxes().len();
    let (ax, ay) = (W / 2.0 - MARGIN - 110.0, H / 2.0 - MARGIN - 90.0);
    let boxes: Vec<(f64, f64, f64)> = p
        .boxes()
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let r = box_radius(&b.name);
            if nb == 1 {
                (cx, cy, r)
            } else {
                let a = std::f64::consts::PI * (1.0 + 2.0 * k as f64 / nb as f64);
                (cx + ax * a.cos(), cy + ay * a.sin(), r)
            }
        })
        .collect();
    // Initial junction positions.
    let nj = p.junctions().len();
    let mut jp: Vec<(f64, f64)> = (0..nj)
        .map(|j| {
            let at = p.ports_at(j);
            let (mut x, mut y) = (cx, cy);
            if !at.is_empty() {
                x = at.iter().map(|(b, _)| boxes[*b].0).sum::<f64>() / at.len() as f64;
                y = at.iter().map(|(b, _)| boxes[*b].1).sum::<f64>() / at.len() as f64;
            }
            if p.junctions()[j].outer.is_some() {
                let (dx, dy) = (x - cx, y - cy);
                let n = (dx * dx + dy * dy).sqrt();
                let (ux, uy) = if n < 1e-9 {
                    (1.0, 0.0)
                } else {
                    (dx / n, dy / n)
                };
                x += ux * 0.22 * (W / 2.0 - MARGIN);
                y += uy * 0.22 * (H / 2.0 - MARGIN);
            }
            // Deterministic jitter so coincident junctions separate.
            (
                x + 7.0 * (j as f64 * 1.7).sin(),
                y + 7.0 * (j as f64 * 2.3).cos(),
            )
        })
        .collect();
    for _ in 0..200 {
        for a in 0..nj {
            let (mut fx, mut fy) = (0.0, 0.0);
            for b in 0..nj {
                if a != b {
                    let (dx, dy) = (jp[a].0 - jp[b].0, jp[a].1 - jp[b].1);
                    let d = (dx * dx + dy * dy).sqrt().max(1e-3);
                    if d < 60.0 {
                        fx += dx / d * (60.0 - d) * 0.5;
                        fy += dy / d * (60.0 - d) * 0.5;
                    }
                }
            }
            for &(bx, by, r) in &boxes {
                let (dx, dy) = (jp[a].0 - bx, jp[a].1 - by);
                let d = (dx * dx + dy * dy).sqrt().max(1e-3);
                if d < r + 22.0 {
                    fx += dx / d * (r + 22.0 - d);
                    fy += dy / d * (r + 22.0 - d);
                }
            }
            jp[a].0 = (jp[a].0 + fx).clamp(MARGIN + 45.0, W - MARGIN - 45.0);
            jp[a].1 = (jp[a].1 + fy).clamp(MARGIN + 45.0, H - MARGIN - 45.0);
        }
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{}" viewBox="0 0 {W} {}" font-family="sans-serif" font-size="13">"#,
        H + 20.0,
        H + 20.0
    );
    let _ = writeln!(s, "<title>pattern {}</title>", esc(&p.name));
    let _ = writeln!(
        s,
        r#"<rect x="{MARGIN}" y="{MARGIN}" width="{}" height="{}" fill="none" stroke="black" stroke-width="1.5"/>"#,
        W - 2.0 * MARGIN,
        H - 2.0 * MARGIN
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" font-weight="bold">{}</text>"#,
        MARGIN,
        H - MARGIN + 20.0,
        esc(&p.name)
    );
    // Port lines (drawn first, under boxes and dots).
    for (bi, b) in p.boxes().iter().enumerate() {
        let (bx, by, r) = boxes[bi];
        for port in b.interface.ports() {
            let Some(&j) = b.wiring.get(&port.name) else {
                continue;
            };
            let (jx, jy) = jp[j];
            let (dx, dy) = (jx - bx, jy - by);
            let d = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (sx, sy) = (bx + dx / d * r, by + dy / d * r);
            let dash = if port.kind == PortKind::State {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r#"<line class="port" x1="{sx:.1}" y1="{sy:.1}" x2="{jx:.1}" y2="{jy:.1}" stroke="black" stroke-width="1.5"{dash}/>"#
            );
            if port.name == p.junctions()[j].name {
                continue;
            }
            let (lx, ly) = (0.55 * sx + 0.45 * jx, 0.55 * sy + 0.45 * jy);
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" fill="#555" font-size="11">{}</text>"##,
                lx + 4.0,
                ly - 4.0,
                esc(&port.name)
            );
        }
    }
    // Outer ports: from the junction to the outer box edge.
    for (j, jn) in p.junctions().iter().enumerate() {
        if let Some(o) = &jn.outer {
            let (jx, jy) = jp[j];
            let (dx, dy) = (jx - cx, jy - cy);
            let n = (dx * dx + dy * dy).sqrt();
            let (ux, uy) = if n < 1e-9 {
                (1.0, 0.0)
            } else {
                (dx / n, dy / n)
            };
            // Distance to the rectangle along (ux, uy).
            let tx = if ux.abs() > 1e-12 {
                ((if ux > 0.0 { W - MARGIN } else { MARGIN }) - jx) / ux
            } else {
                f64::MAX
            };
            let ty = if uy.abs() > 1e-12 {
                ((if uy > 0.0 { H - MARGIN } else { MARGIN }) - jy) / uy
            } else {
                f64::MAX
            };
            let t = tx.min(ty).max(0.0);
            let (ex, ey) = (jx + ux * t, jy + uy * t);
            let dash = if o.kind == PortKind::State {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r#"<line class="outer-port" x1="{jx:.1}" y1="{jy:.1}" x2="{ex:.1}" y2="{ey:.1}" stroke="black" stroke-width="1.5"{dash}/>"#
            );
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" font-style="italic">{}</text>"#,
                ex - ux * 18.0 + 4.0,
                ey - uy * 18.0 - 4.0,
                esc(&o.name)
            );
        }
    }
    // Inner boxes (round).
    for (bi, b) in p.boxes().iter().enumerate() {
        let (bx, by, r) = boxes[bi];
        let _ = writeln!(
            s,
            r##"<circle class="box" cx="{bx:.1}" cy="{by:.1}" r="{r:.1}" fill="#fff3c4" stroke="black" stroke-width="1.5"/>"##
        );
        let _ = writeln!(
            s,
            r#"<text x="{bx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            by + 4.5,
            esc(&b.name)
        );
    }
    // Junction dots with their names and quantities (as a tooltip).
    for (j, jn) in p.junctions().iter().enumerate() {
        let (jx, jy) = jp[j];
        let _ = writeln!(
            s,
            r#"<circle class="junction" cx="{jx:.1}" cy="{jy:.1}" r="5" fill="black"><title>{} : {}</title></circle>"#,
            esc(&jn.name),
            esc(&jn.quantity.to_string())
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" fill="#1a4d8f" font-size="12">{}</text>"##,
            jx + 7.0,
            jy + 15.0,
            esc(&jn.name)
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::joint::{joint_pattern, JointKind};
    use crate::library::oscillator::{damped_oscillator_pattern, oscillator_pattern};

    #[test]
    fn svg_has_boxes_junctions_ports_and_outer_box() {
        let p = joint_pattern(JointKind::Revolute).unwrap();
        let s = pattern_svg(&p);
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert_eq!(s.matches(r#"class="box""#).count(), 7);
        assert_eq!(s.matches(r#"class="junction""#).count(), 7);
        // 4 + 2 + 2 + 1 + 2 + 2 + 1 = 14 inner port lines; one is a state port (hc.q_r).
        assert_eq!(s.matches(r#"class="port""#).count(), 14);
        assert_eq!(s.matches("stroke-dasharray").count(), 1);
        assert_eq!(s.matches(r#"class="outer-port""#).count(), 2);
        assert!(s.contains(">hc<") && s.contains(">p_r<"));
        for p in [
            oscillator_pattern().unwrap(),
            damped_oscillator_pattern().unwrap(),
        ] {
            let s = pattern_svg(&p);
            assert_eq!(s.matches(r#"class="box""#).count(), 3);
            assert!(!s.contains("NaN"));
        }
    }
}

#[cfg(test)]
mod dump {
    /// Writes the pictures of the library patterns to `$PHLEX_EPHS_SVG_DIR` when set
    /// (for visual inspection; nothing is written otherwise).
    #[test]
    fn dump_library_patterns() {
        let Ok(dir) = std::env::var("PHLEX_EPHS_SVG_DIR") else {
            return;
        };
        use crate::library::*;
        let pats = [
            oscillator::oscillator_pattern().unwrap(),
            oscillator::damped_oscillator_pattern().unwrap(),
            rigid_body::rigid_body_pattern().unwrap(),
            joint::joint_pattern(joint::JointKind::Revolute).unwrap(),
        ];
        for p in pats {
            std::fs::write(format!("{dir}/{}.svg", p.name), super::pattern_svg(&p)).unwrap();
        }
    }
}
