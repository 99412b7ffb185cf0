//! Thesis 004 §10.2.2, Table 10.6: cantilever plate with two proof-mass actuators and a
//! mirror. Prints the six lowest eigenfrequencies against Fig. 10.13 and writes them to a
//! CSV file.
//!
//! ```text
//! cargo run -p phlex-mbs --release --example plate_actuators -- [nx ny degree] [out.csv]
//! ```
//! Defaults: the thesis mesh 8 × 60, degree 2, `plate_actuators.csv`. Every row of the CSV
//! is one mode: `mode,thesis_hz,box_hz,box_rel,point_hz,point_rel` for the thesis box
//! $\delta$ (eq. (10.13), normalised) and the exact point evaluation.
use phlex_fem::mesh2d::Diagonal;
use phlex_mbs::plate_assembly::{DeltaApprox, Table106, TABLE_10_6_HZ};
use std::io::Write;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: usize| -> Result<usize, Box<dyn std::error::Error>> {
        match args.get(i) {
            Some(s) if args.len() >= 3 => Ok(s.parse()?),
            _ => Ok(d),
        }
    };
    let bench = Table106 {
        nx: num(0, 8)?,
        ny: num(1, 60)?,
        degree: num(2, 2)?,
        diagonal: Diagonal::Right,
    };
    let out = if args.len() == 1 || args.len() == 4 {
        args.last().cloned().unwrap_or_default()
    } else {
        "plate_actuators.csv".to_string()
    };
    let shift = 2.0 * std::f64::consts::PI * TABLE_10_6_HZ[0];
    let mut rows = Vec::new();
    for delta in [bench.mesh_box(), DeltaApprox::Point] {
        let t = Instant::now();
        let a = bench.build(delta)?;
        let f = a.modes(6, shift)?.frequencies_hz();
        eprintln!(
            "{delta:?}: {} states, {:.2?}",
            a.system.n_states(),
            t.elapsed()
        );
        rows.push(f);
    }
    println!(
        "Table 10.6 bench, HHJ k = {} on {} x {}",
        bench.degree, bench.nx, bench.ny
    );
    println!("mode  thesis [Hz]   box [Hz] (rel)        point [Hz] (rel)");
    let mut csv = String::from("mode,thesis_hz,box_hz,box_rel,point_hz,point_rel\n");
    for (i, th) in TABLE_10_6_HZ.iter().enumerate() {
        let (b, p) = (rows[0][i], rows[1][i]);
        let (rb, rp) = ((b - th) / th, (p - th) / th);
        println!(
            "{:4}  {th:10.2}   {b:9.3} ({:+.2} %)   {p:9.3} ({:+.2} %)",
            i + 1,
            100.0 * rb,
            100.0 * rp
        );
        csv.push_str(&format!("{},{th},{b},{rb},{p},{rp}\n", i + 1));
    }
    let tmp = format!("{out}.tmp");
    std::fs::File::create(&tmp)?.write_all(csv.as_bytes())?;
    std::fs::rename(&tmp, &out)?;
    println!("wrote {out}");
    Ok(())
}
