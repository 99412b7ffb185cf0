//! First three constrained eigenfrequencies of the four-bar mechanism of paper 000 §6.2
//! (Table 2) as the crank angle θ1 sweeps 0–360° (paper Fig. 7).
//!
//! The model is `examples/mbs/four_bar_modes.toml` (crank welded to the ground, 16 elements
//! per link, lumped masses 0.042 kg); for each angle the crank pose is moved, the coupler
//! and follower poses are continued from the previous angle and the loop is closed by the
//! model's `[initial]` correction, then the pHDAE is linearised about the closed
//! configuration (`phlex modes`). Writes `out/four_bar_sweep/frequencies.csv` and
//! `frequencies.svg`.
//!
//! ```text
//! cargo run --release -p phlex --example four_bar_sweep [-- STEP_DEG]
//! ```
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use phlex::kinds::mbs::MbsModel;
use phlex::output::{svg_plot, write_atomic};
use phlex_mbs::Pose2d;

fn main() -> Result<()> {
    let step: f64 = match std::env::args().nth(1) {
        Some(s) => s.parse().context("STEP_DEG must be a number of degrees")?,
        None => 10.0,
    };
    anyhow::ensure!(step > 0.0 && step <= 180.0, "STEP_DEG must be in (0, 180]");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/mbs/four_bar_modes.toml");
    let mut model = MbsModel::read(&file)?;
    // Continuation from the angle of the file (its poses are a guess of that branch).
    let b0 = model.build()?;
    let crank = b0.mb.body_index("crank").map_err(|e| model.convert(e))?;
    let theta0 = b0.mb.pose(crank, &b0.init.state).theta.to_degrees();
    let n = (360.0 / step).round() as usize;
    let mut angles: Vec<f64> = (0..=n).map(|k| k as f64 * 360.0 / n as f64).collect();
    // Visit the angles in order starting next to the file's angle, wrapping around.
    let start = angles.iter().position(|a| *a >= theta0 - 1e-9).unwrap_or(0);
    angles.rotate_left(start);
    let names = b0.mb.body_names();
    let mut poses: Vec<Pose2d> = (0..names.len())
        .map(|b| b0.mb.pose(b, &b0.init.state))
        .collect();
    let mut rows: Vec<[f64; 4]> = Vec::with_capacity(angles.len());
    println!(
        "four-bar (paper 000 §6.2): first three constrained eigenfrequencies [rad/s], {} states",
        b0.mb.n()
    );
    println!("  theta1 [deg]        omega1        omega2        omega3");
    for &deg in &angles {
        for (b, name) in names.iter().enumerate() {
            let mut p = poses[b];
            if b == crank {
                p.theta = deg.to_radians();
            }
            model.set_pose(name, p)?;
        }
        let built = model
            .build()
            .with_context(|| format!("building the four-bar at θ1 = {deg}°"))?;
        for (b, p) in poses.iter_mut().enumerate() {
            *p = built.mb.pose(b, &built.init.state);
        }
        let m = model.modes(&built, 3)?;
        anyhow::ensure!(m.len() == 3, "fewer than three modes at θ1 = {deg}°");
        println!(
            "  {deg:12.1}  {:12.3}  {:12.3}  {:12.3}",
            m[0].omega, m[1].omega, m[2].omega
        );
        rows.push([deg, m[0].omega, m[1].omega, m[2].omega]);
    }
    rows.sort_by(|a, b| a[0].total_cmp(&b[0]));
    let dir = PathBuf::from("out/four_bar_sweep");
    let mut csv = String::from("theta1_deg,omega1,omega2,omega3\n");
    for r in &rows {
        csv.push_str(&format!(
            "{},{:.17e},{:.17e},{:.17e}\n",
            r[0], r[1], r[2], r[3]
        ));
    }
    let x: Vec<f64> = rows.iter().map(|r| r[0]).collect();
    let w: Vec<Vec<f64>> = (1..4)
        .map(|k| rows.iter().map(|r| r[k]).collect())
        .collect();
    let svg = svg_plot(
        "four-bar mechanism: first three eigenfrequencies (paper 000 Fig. 7)",
        "crank angle theta1 [deg]   (y: omega [rad/s])",
        &[
            ("omega1 [rad/s]", &x, &w[0]),
            ("omega2 [rad/s]", &x, &w[1]),
            ("omega3 [rad/s]", &x, &w[2]),
        ],
    )?;
    write_atomic(&dir.join("frequencies.csv"), csv.as_bytes())?;
    write_atomic(&dir.join("frequencies.svg"), svg.as_bytes())?;
    println!(
        "  written {} and {}",
        dir.join("frequencies.csv").display(),
        dir.join("frequencies.svg").display()
    );
    Ok(())
}
