//! Each figure against its target: printed, and appended as one JSON line to `BENCH_RESULTS`.

use std::io::Write;

use serde::Serialize;

use super::{
    IDLE_QUERIES_TARGET, LATENESS_P99_TARGET, START_P95_TARGET, THROUGHPUT_TARGET,
    batched::Drained,
    percentile,
    phases::{Backlog, Lateness, StartLatency},
};

#[derive(Serialize)]
struct Figure {
    figure: String,
    measured: String,
    target: String,
    met: bool,
}

#[derive(Default)]
pub struct Figures(Vec<Figure>);

impl Figures {
    fn add(&mut self, figure: &str, measured: String, target: String, met: bool) {
        println!(
            "{}  {figure}: {measured} (target {target})",
            if met { "met " } else { "MISS" }
        );
        self.0.push(Figure {
            figure: figure.into(),
            measured,
            target,
            met,
        });
    }

    pub fn throughput_one(&mut self, one: &Backlog) {
        self.add(
            "Jobs: no-op throughput, 100,000 backlog, one worker",
            format!("{} jobs/s{}", thousands(one.jobs_per_second), lost(one)),
            format!("≥ {} jobs/s", thousands(THROUGHPUT_TARGET)),
            one.jobs_per_second >= THROUGHPUT_TARGET && one.missing == 0 && one.duplicates == 0,
        );
    }

    pub fn start_latency(&mut self, start: &StartLatency) {
        let l = &start.latency_ms;
        let p95 = percentile(l, 95.0);
        let missing = if start.missing > 0 {
            format!(", {} never started", start.missing)
        } else {
            String::new()
        };
        self.add(
            "Jobs: enqueue-to-start latency at a steady 200 jobs/s, p50 / p95 / p99",
            format!(
                "{} / {} / {}{missing}",
                ms(percentile(l, 50.0)),
                ms(p95),
                ms(percentile(l, 99.0))
            ),
            format!("p95 ≤ {} ms", START_P95_TARGET.as_millis()),
            p95 <= START_P95_TARGET.as_secs_f64() * 1000.0 && start.missing == 0,
        );
    }

    pub fn lateness(&mut self, lateness: &Lateness) {
        let l = &lateness.late_ms;
        let p99 = percentile(l, 99.0);
        let missing = if lateness.missing > 0 {
            format!(", {} never started", lateness.missing)
        } else {
            String::new()
        };
        self.add(
            "Jobs: lateness of scheduled jobs after the worker sat idle, p99",
            format!(
                "{} (p50 {}, {} jobs){missing}",
                ms(p99),
                ms(percentile(l, 50.0)),
                l.len()
            ),
            format!("≤ {} ms", LATENESS_P99_TARGET.as_millis()),
            p99 <= LATENESS_P99_TARGET.as_secs_f64() * 1000.0 && lateness.missing == 0,
        );
    }

    pub fn idle(&mut self, per_second: f64) {
        self.add(
            "Jobs: database load of an idle worker process (transactions/s, every queue idle)",
            format!("{per_second:.1} queries/s"),
            format!("≤ {IDLE_QUERIES_TARGET} queries/s"),
            per_second <= IDLE_QUERIES_TARGET,
        );
    }

    pub fn two_workers(&mut self, two: &Backlog, one: &Backlog) {
        self.add(
            "Jobs: two worker processes, 100,000 backlog: throughput, jobs run twice",
            format!(
                "{} jobs/s, {} duplicates{}",
                thousands(two.jobs_per_second),
                two.duplicates,
                lost(two)
            ),
            format!(
                "0 duplicates, more than one worker's {} jobs/s",
                thousands(one.jobs_per_second)
            ),
            two.duplicates == 0 && two.missing == 0 && two.jobs_per_second > one.jobs_per_second,
        );
    }

    /// A batched queue's drain: its rate against `target`, what it changed, the load average.
    pub fn batched(&mut self, figure: &str, run: &Drained, target: f64) {
        let failed = if run.not_done > 0 {
            format!(", {} failed", run.not_done)
        } else {
            String::new()
        };
        self.add(
            figure,
            format!(
                "{} tasks/s ({}{failed}; load average {:.1})",
                thousands(run.tasks_per_second),
                run.outcome,
                run.load
            ),
            format!("≥ {} tasks/s, each settled once", thousands(target)),
            run.tasks_per_second >= target && run.not_done == 0 && run.correct,
        );
    }

    /// Appends the JSON lines when `BENCH_RESULTS` names a file.
    pub fn finish(self) -> anyhow::Result<()> {
        let Ok(path) = std::env::var("BENCH_RESULTS") else {
            return Ok(());
        };
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&path)?;
        for figure in &self.0 {
            writeln!(file, "{}", serde_json::to_string(figure)?)?;
        }
        Ok(())
    }
}

fn lost(b: &Backlog) -> String {
    if b.missing > 0 {
        format!(", {} never ran", b.missing)
    } else {
        String::new()
    }
}

fn ms(v: f64) -> String {
    if v < 10.0 {
        format!("{v:.1} ms")
    } else {
        format!("{} ms", v.round())
    }
}

/// `13200.4` → `13,200`.
fn thousands(v: f64) -> String {
    let digits = (v.round().max(0.0) as u64).to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_like_the_issue() {
        assert_eq!(thousands(13_200.4), "13,200");
        assert_eq!(thousands(100_000.0), "100,000");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(ms(3.12), "3.1 ms");
        assert_eq!(ms(47.6), "48 ms");
    }
}
