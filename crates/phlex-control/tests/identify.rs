#![allow(non_snake_case)]
//! `identify` entry point: CSV → report, and typed errors for bad data.

use phlex_control::identify::era::Order;
use phlex_control::{identify_csv, ControlError, IdentifyOptions};

mod common;
use common::{frame, white_noise_test, DT};

fn frame_csv(l: usize, noise: f64) -> (String, Vec<(f64, f64)>) {
    let fr = frame();
    let (mut rng, u, y) = white_noise_test(77, l);
    let mut s = String::from("t, force, acc1, acc2, acc3\n");
    for k in 0..l {
        let n: Vec<f64> = (0..3).map(|_| noise * rng.normal()).collect();
        s.push_str(&format!(
            "{},{},{},{},{}\n",
            k as f64 * DT,
            u[(0, k)],
            y[(0, k)] + n[0],
            y[(1, k)] + n[1],
            y[(2, k)] + n[2]
        ));
    }
    let modes = fr
        .damped_modes()
        .unwrap()
        .iter()
        .map(|m| (m.freq_hz, m.damping))
        .collect();
    (s, modes)
}

/// Default options on 4096 noisy samples: automatic order 6, frequencies
/// within 0.5 %, damping within 10 % (as the identification round trip).
/// `csv` with the cell in line `line`, column `col` replaced by `value`.
fn replace_cell(csv: &str, line: usize, col: usize, value: &str) -> String {
    csv.lines()
        .enumerate()
        .map(|(i, l)| {
            if i == line {
                let mut p: Vec<&str> = l.split(',').collect();
                p[col] = value;
                p.join(",")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn identify_frame_csv() {
    let (csv, modes) = frame_csv(4096, 0.05);
    let opts = IdentifyOptions::new(&["force"], &["acc1", "acc2", "acc3"], DT);
    let rep = identify_csv(&csv, &opts).unwrap();
    eprintln!("{rep}");
    assert_eq!(rep.realization.order, 6);
    for (k, (f, xi)) in modes.iter().enumerate() {
        assert!((rep.modes.modes[k].freq_hz - f).abs() < 5e-3 * f);
        assert!((rep.modes.modes[k].damping - xi).abs() < 0.1 * xi);
    }
    let text = format!("{rep}");
    assert!(text.contains("A (6x6)") && text.contains("G (6x3)"));
}

#[test]
fn identify_errors() {
    let (csv, _) = frame_csv(300, 0.0);
    let opts = IdentifyOptions::new(&["force"], &["acc1", "acc9"], DT);
    match identify_csv(&csv, &opts).unwrap_err() {
        ControlError::MissingColumn { name, available } => {
            assert_eq!(name, "acc9");
            assert!(available.contains("acc3"));
        }
        e => panic!("{e}"),
    }
    // NaN in row 5 of acc2
    let bad = replace_cell(&csv, 5, 3, "NaN");
    match identify_csv(
        &bad,
        &IdentifyOptions::new(&["force"], &["acc1", "acc2"], DT),
    )
    .unwrap_err()
    {
        ControlError::BadValue { column, row, .. } => {
            assert_eq!(column, "acc2");
            assert_eq!(row, 5);
        }
        e => panic!("{e}"),
    }
    // unparsable cell
    let bad2 = replace_cell(&csv, 3, 2, "abc");
    match identify_csv(&bad2, &IdentifyOptions::new(&["force"], &["acc1"], DT)).unwrap_err() {
        ControlError::BadValue { column, row, value } => {
            assert_eq!((column.as_str(), row, value.as_str()), ("acc1", 3, "abc"))
        }
        e => panic!("{e}"),
    }
    // too few samples for the requested order: n = 120 needs p ≥ 41,
    // 2(1 + 4·41) = 330 > 300 samples
    let mut opts = IdentifyOptions::new(&["force"], &["acc1", "acc2", "acc3"], DT);
    opts.order = Order::Fixed(120);
    assert!(matches!(
        identify_csv(&csv, &opts).unwrap_err(),
        ControlError::NotEnoughData { .. }
    ));
    // invalid dt
    let opts = IdentifyOptions::new(&["force"], &["acc1"], -1.0);
    assert!(matches!(
        identify_csv(&csv, &opts).unwrap_err(),
        ControlError::InvalidParameter { .. }
    ));
}

/// The same data through N4SID (`method = n4sid`): automatic order 6 from
/// the singular values of the oblique projection, frequencies within 0.5 %,
/// damping within 10 %, and the report names the method.
#[test]
fn identify_frame_csv_n4sid() {
    let (csv, modes) = frame_csv(4096, 0.05);
    let mut opts = IdentifyOptions::new(&["force"], &["acc1", "acc2", "acc3"], DT);
    opts.method = "n4sid".parse().unwrap();
    let rep = identify_csv(&csv, &opts).unwrap();
    eprintln!("{rep}");
    assert_eq!(rep.realization.order, 6);
    for (k, (f, xi)) in modes.iter().enumerate() {
        let m = &rep.modes.modes[k];
        eprintln!(
            "mode {}: f err {:.2e}, zeta err {:.2e}",
            k + 1,
            (m.freq_hz - f).abs() / f,
            (m.damping - xi).abs() / xi
        );
        assert!((m.freq_hz - f).abs() < 5e-3 * f);
        assert!((m.damping - xi).abs() < 0.1 * xi);
    }
    assert!(format!("{rep}").contains("N4SID i = "));
    assert!("pid".parse::<phlex_control::identify::Method>().is_err());
}
