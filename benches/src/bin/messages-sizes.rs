//! Print the message datasets' encoded sizes (raw, gzip, zstd, brotli) per format as a
//! Markdown table. Not timed; `messages-results` puts the same table in RESULTS.md.

fn main() {
    let rows = bijoubuf_benches::msg::sizes::rows();
    print!("{}", bijoubuf_benches::msg::sizes::markdown(&rows));
}
