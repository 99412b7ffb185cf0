//! Interconnections of random pH systems stay pH, and the composed power balance holds
//! (paper 000 §5.1, eq. (43)).
use faer::Mat;
use phlex_core::interconnect::Composite;
use phlex_core::sparse::{self, Triplets};
use phlex_core::structure::Tolerances;
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A random lossy pH system with `n` states and ports of the given dimensions:
/// J = S − Sᵀ, E = LLᵀ + I, R = KKᵀ (both symmetric PSD by construction).
fn random_system(rng: &mut StdRng, n: usize, port_dims: &[usize]) -> LinearPhSystem {
    let m: usize = port_dims.iter().sum();
    let rnd = |rng: &mut StdRng, r: usize, c: usize| {
        Mat::<f64>::from_fn(r, c, |_, _| rng.gen_range(-1.0..1.0))
    };
    let s = rnd(rng, n, n);
    let l = rnd(rng, n, n);
    let k = rnd(rng, n, 2);
    let b = rnd(rng, n, m);
    let j = &s - s.transpose();
    let e = &l * l.transpose() + Mat::<f64>::identity(n, n);
    let r = 0.1 * (&k * k.transpose());
    let ports = PortSet::from_ports(
        port_dims
            .iter()
            .enumerate()
            .map(|(i, &d)| Port::new(format!("p{i}"), d, "u", "y"))
            .collect(),
    )
    .unwrap();
    LinearPhSystem::new(
        sparse::from_dense(&e, 0.0),
        sparse::from_dense(&j, 0.0),
        sparse::from_dense(&r, 0.0),
        sparse::from_dense(&b, 0.0),
        ports,
        vec![VarBlock::differential("x", "state", n)],
    )
    .unwrap()
}

/// The power entering the system at state e with input u: eᵀ((J − R)e + Bu) − yᵀu + eᵀRe,
/// which must vanish identically for a pH system (Ḣ = yᵀu − eᵀRe).
fn power_defect(s: &LinearPhSystem, e: &[f64], u: &[f64]) -> f64 {
    let mut f = vec![0.0; s.n_states()];
    s.rhs(e, u, &mut f);
    let hdot: f64 = e.iter().zip(&f).map(|(a, b)| a * b).sum();
    let y = s.output(e);
    let yu: f64 = y.iter().zip(u).map(|(a, b)| a * b).sum();
    (hdot - yu + s.dissipation(e)).abs()
}

#[test]
fn gyrator_transformer_and_feedback_compositions_stay_port_hamiltonian() {
    let mut rng = StdRng::seed_from_u64(0);
    for trial in 0..20 {
        let s1 = random_system(&mut rng, 5 + trial % 3, &[2, 1]);
        let s2 = random_system(&mut rng, 4, &[2, 3]);
        let s3 = random_system(&mut rng, 3, &[3, 1]);
        let c12 = Mat::<f64>::from_fn(2, 2, |_, _| rng.gen_range(-1.0..1.0));
        let c23 = Mat::<f64>::from_fn(3, 3, |_, _| rng.gen_range(-1.0..1.0));
        let mut kt = Triplets::new(1, 1);
        kt.push(0, 0, 0.7);
        let composed = Composite::new()
            .add("a", &s1)
            .unwrap()
            .add("b", &s2)
            .unwrap()
            .add("c", &s3)
            .unwrap()
            .gyrator("a.p0", "b.p0", &c12)
            .unwrap()
            .transformer("b.p1", "c.p0", &c23, "lambda_bc")
            .unwrap()
            .feedback("c.p1", &kt.build())
            .unwrap()
            .build()
            .unwrap();
        composed.check(&Tolerances::default()).unwrap();
        // Open ports keep their names.
        assert_eq!(composed.ports.names(), vec!["a.p1".to_string()]);
        assert_eq!(
            composed.n_states(),
            s1.n_states() + s2.n_states() + s3.n_states() + 3
        );
        let e: Vec<f64> = (0..composed.n_states())
            .map(|_| rng.gen_range(-1.0..1.0))
            .collect();
        let u = vec![rng.gen_range(-1.0..1.0)];
        let scale = 1.0 + composed.hamiltonian(&e);
        assert!(power_defect(&composed, &e, &u) < 1e-12 * scale * 100.0);
    }
}

#[test]
fn gyrator_block_is_b2_ct_b1t() {
    // Erratum of paper 000: the (2,1) block of the gyrator interconnection is B2 Cᵀ B1ᵀ.
    let mut rng = StdRng::seed_from_u64(1);
    let s1 = random_system(&mut rng, 3, &[2]);
    let s2 = random_system(&mut rng, 4, &[2]);
    let c = Mat::<f64>::from_fn(2, 2, |i, j| (1 + i + 2 * j) as f64);
    let g = Composite::new()
        .add("s1", &s1)
        .unwrap()
        .add("s2", &s2)
        .unwrap()
        .gyrator("s1.p0", "s2.p0", &c)
        .unwrap()
        .build()
        .unwrap();
    let jd = sparse::to_dense(&g.J);
    let b1 = sparse::to_dense(&s1.B);
    let b2 = sparse::to_dense(&s2.B);
    let expect21 = &b2 * c.transpose() * b1.transpose();
    let expect12 = -(&b1 * &c * b2.transpose());
    for i in 0..4 {
        for j in 0..3 {
            let got = jd[(3 + i, j)];
            assert!((got - expect21[(i, j)]).abs() < 1e-12);
            assert!((jd[(j, 3 + i)] - expect12[(j, i)]).abs() < 1e-12);
        }
    }
}

#[test]
fn bad_interconnections_are_rejected_with_names() {
    let mut rng = StdRng::seed_from_u64(2);
    let s1 = random_system(&mut rng, 3, &[2]);
    let s2 = random_system(&mut rng, 3, &[1]);
    let c = Mat::<f64>::zeros(2, 2);
    let err = Composite::new()
        .add("a", &s1)
        .unwrap()
        .add("b", &s2)
        .unwrap()
        .gyrator("a.p0", "b.p0", &c)
        .unwrap_err();
    assert!(err.to_string().contains("C must be 2 x 1"), "{err}");
    let err = Composite::new()
        .add("a", &s1)
        .unwrap()
        .gyrator("a.p0", "a.nope", &c)
        .unwrap_err();
    assert!(err.to_string().contains("a.nope"), "{err}");
    let err = Composite::new()
        .add("a", &s1)
        .unwrap()
        .add("a", &s1)
        .unwrap_err();
    assert!(err.to_string().contains("duplicate"), "{err}");
}
