//! Thesis 004 §10.2.2, Table 10.6: cantilever plate with two proof-mass actuators and a
//! mirror. Prints the six lowest eigenfrequencies against Fig. 10.13 and writes them to a
//! CSV file.
//!
//! ```text
//! cargo run -p phlex-mbs --release --example plate_actuators -- [nx ny degree] [out.csv]
//! ```
//! Defaults: the thesis mesh 8 × 60, HHJ degree 2, `plate_actuators.csv`. One CSV row per
//! mode, `mode,thesis_hz,box_hz,box_rel,literal_box_hz,literal_box_rel,point_hz,point_rel`:
//! * `box`: the box δ of eq. (10.13) with the thesis footprint, normalised inside the plate
//!   ([`Table106::delta`], the reading that reproduces the table);
//! * `literal_box`: $1/(4h_xh_y)$ on this mesh without renormalisation (the mirror, on the
//!   edge, keeps half its weight);
//! * `point`: exact point evaluation (not mesh-convergent for the torques).
use phlex_fem::mesh::Diagonal;
use phlex_mbs::models::plate_assembly::{DeltaApprox, Table106, TABLE_10_6_HZ};
use std::io::Write;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mesh, out): (&[String], String) = match args.len() {
        0 => (&[], "plate_actuators.csv".into()),
        1 => (&[], args[0].clone()),
        3 => (&args[..3], "plate_actuators.csv".into()),
        4 => (&args[..3], args[3].clone()),
        _ => return Err("usage: plate_actuators [nx ny degree] [out.csv]".into()),
    };
    let mut bench = Table106::thesis();
    if !mesh.is_empty() {
        bench = Table106 {
            nx: mesh[0].parse()?,
            ny: mesh[1].parse()?,
            degree: mesh[2].parse()?,
            diagonal: Diagonal::Right,
        };
    }
    let shift = 2.0 * std::f64::consts::PI * TABLE_10_6_HZ[0];
    let mut cols = Vec::new();
    for delta in [Table106::delta(), bench.literal_box(), DeltaApprox::Point] {
        let t = Instant::now();
        let a = bench.build(delta)?;
        let f = a.modes(6, shift)?.frequencies_hz();
        eprintln!(
            "{delta:?}: {} states, {:.2?}",
            a.system.n_states(),
            t.elapsed()
        );
        cols.push(f);
    }
    println!(
        "Table 10.6 bench, HHJ k = {} on {} x {}",
        bench.degree, bench.nx, bench.ny
    );
    println!("mode  thesis [Hz]   box [Hz] (rel)        literal box [Hz] (rel)   point [Hz] (rel)");
    let mut csv = String::from(
        "mode,thesis_hz,box_hz,box_rel,literal_box_hz,literal_box_rel,point_hz,point_rel\n",
    );
    for (i, th) in TABLE_10_6_HZ.iter().enumerate() {
        let mut line = format!("{:4}  {th:10.2}", i + 1);
        csv.push_str(&format!("{},{th}", i + 1));
        for c in &cols {
            let r = (c[i] - th) / th;
            line.push_str(&format!("   {:9.3} ({:+.2} %)", c[i], 100.0 * r));
            csv.push_str(&format!(",{},{r}", c[i]));
        }
        println!("{line}");
        csv.push('\n');
    }
    let tmp = format!("{out}.tmp");
    std::fs::File::create(&tmp)?.write_all(csv.as_bytes())?;
    std::fs::rename(&tmp, &out)?;
    println!("wrote {out}");
    Ok(())
}
