use phlex_mbs::geometrically_exact_2d::*;
use phlex_mbs::CrankSlider;

const H15: f64 = 1.0 / 32768.0;

#[test]
fn explore() {
    for n in [4usize, 8] {
        let r = ExactCrankSlider::new(n).run(H15, 0.053).unwrap();
        println!("exact n={n}: uy [{:+.6e}, {:+.6e}] N/Pcr {:?} eres {:.2e} viol {:.1e} steps {} newton {} lu {} {:.2}s",
            r.uy_range.0, r.uy_range.1, r.normal_force_range, r.rel_energy_residual, r.stats.max_violation, r.stats.steps, r.stats.newton_iterations, r.stats.factorizations, r.seconds);
        let p = CrankSlider::new(n, true).run(CrankSlider::params(H15, 0.053, 1)).unwrap();
        println!("phlex n={n}: uy [{:+.6e}, {:+.6e}] {:.2}s", p.uy_range.0, p.uy_range.1, p.seconds);
        let m = r.uy.iter().zip(&p.uy).map(|(a,b)| (a-b).abs()).fold(0.0, f64::max);
        println!("len {} {}, max diff {m:.3e}", r.uy.len(), p.uy.len());
    }
}
