//! A criterion measurement by the calling thread's CPU time.
//!
//! This machine is shared: wall time counts whatever else the cores were doing, while the
//! thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`) counts only the time this thread ran.
//! Contention still shows (caches and the sibling hyper-thread are shared), so results are
//! quoted as ratios against peers measured in the same process, never as absolutes.
//!
//! ```no_run
//! use criterion::Criterion;
//! use bijoubuf_benches::cpu::ThreadTime;
//!
//! let mut c = Criterion::default().with_measurement(ThreadTime);
//! c.bench_function("sum", |b| b.iter(|| (0..1000u64).sum::<u64>()));
//! ```

use std::time::Duration;

use criterion::Throughput;
use criterion::measurement::{Measurement, ValueFormatter};

/// The calling thread's CPU time (Linux `CLOCK_THREAD_CPUTIME_ID`).
#[derive(Debug, Clone, Copy, Default)]
pub struct ThreadTime;

/// The thread's CPU clock now.
pub fn thread_cpu_now() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant the kernel
    // knows. On failure the call leaves `ts` at zero, which the assertion below reports.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The whole process's CPU clock now: user and system time of all its threads
/// (Linux `CLOCK_PROCESS_CPUTIME_ID`). The RPC benchmark serves and calls in one
/// process, so this counts the client, the server and tokio's workers alike, and not
/// what other processes on the machine did.
pub fn process_cpu_now() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: as in `thread_cpu_now`: a valid, writable timespec and a constant clock id.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

impl Measurement for ThreadTime {
    type Intermediate = Duration;
    type Value = Duration;

    fn start(&self) -> Duration {
        thread_cpu_now()
    }
    fn end(&self, start: Duration) -> Duration {
        thread_cpu_now().saturating_sub(start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

/// Formats nanoseconds of CPU time as criterion's wall-time formatter does.
struct CpuFormatter;

impl CpuFormatter {
    fn per_second(
        typical_ns: f64,
        per_iter: f64,
        values: &mut [f64],
        units: [&'static str; 4],
    ) -> &'static str {
        let rate = per_iter * 1e9 / typical_ns;
        let (div, unit) = if rate < 1e3 {
            (1.0, units[0])
        } else if rate < 1e6 {
            (1e3, units[1])
        } else if rate < 1e9 {
            (1e6, units[2])
        } else {
            (1e9, units[3])
        };
        for v in values {
            *v = per_iter * 1e9 / *v / div;
        }
        unit
    }
}

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, typical_ns: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = if typical_ns < 1.0 {
            (1e3, "ps (cpu)")
        } else if typical_ns < 1e3 {
            (1.0, "ns (cpu)")
        } else if typical_ns < 1e6 {
            (1e-3, "µs (cpu)")
        } else if typical_ns < 1e9 {
            (1e-6, "ms (cpu)")
        } else {
            (1e-9, "s (cpu)")
        };
        for v in values {
            *v *= factor;
        }
        unit
    }

    fn scale_throughputs(
        &self,
        typical_ns: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        match *throughput {
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) => Self::per_second(
                typical_ns,
                n as f64,
                values,
                ["B/s", "KB/s", "MB/s", "GB/s"],
            ),
            Throughput::Bits(n) => Self::per_second(
                typical_ns,
                n as f64,
                values,
                ["b/s", "Kb/s", "Mb/s", "Gb/s"],
            ),
            Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. } => {
                Self::per_second(
                    typical_ns,
                    n as f64,
                    values,
                    ["elem/s", "Kelem/s", "Melem/s", "Gelem/s"],
                )
            }
        }
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_advances_with_work_and_not_with_sleep() {
        let m = ThreadTime;
        let start = m.start();
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        let busy = m.end(start);
        assert!(
            busy > Duration::ZERO,
            "5 M multiply-adds took no CPU time ({x})"
        );

        let start = m.start();
        std::thread::sleep(Duration::from_millis(200));
        let slept = m.end(start);
        assert!(
            slept < Duration::from_millis(100),
            "sleeping 200 ms counted {slept:?} of CPU"
        );
    }

    #[test]
    fn the_process_clock_counts_other_threads_and_not_sleep() {
        let start = process_cpu_now();
        let spun = std::thread::spawn(|| {
            let t = thread_cpu_now();
            let mut x = 0u64;
            for i in 0..5_000_000u64 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
            }
            (thread_cpu_now().saturating_sub(t), x)
        })
        .join()
        .expect("thread");
        let busy = process_cpu_now().saturating_sub(start);
        // This thread did nothing but wait: what the process clock counted is the other
        // thread's work, which a thread clock here would not have seen.
        assert!(
            busy >= spun.0 && spun.0 > Duration::ZERO,
            "the process counted {busy:?}, the spinning thread {:?} ({})",
            spun.0,
            spun.1
        );

        let start = process_cpu_now();
        std::thread::sleep(Duration::from_millis(200));
        let slept = process_cpu_now().saturating_sub(start);
        assert!(
            slept < Duration::from_millis(100),
            "sleeping 200 ms counted {slept:?} of process CPU"
        );
    }
}
