//! Encoded sizes per dataset and peer, raw and compressed (gzip, zstd, brotli).

use std::io::Write as _;

use super::data::{self, Dataset};
use super::{bijou, convert, gm1};

/// One peer's encoding of one dataset.
#[derive(Debug, Clone)]
pub struct Row {
    /// Dataset.
    pub dataset: Dataset,
    /// `bijoubuf`, `protobuf` or `bilrost`.
    pub peer: &'static str,
    /// Raw bytes.
    pub raw: usize,
    /// gzip (flate2, level 6).
    pub gzip: usize,
    /// zstd (level 3).
    pub zstd: usize,
    /// brotli (quality 9, window 2^22).
    pub brotli: usize,
}

/// Compressed lengths of `b`: gzip, zstd, brotli.
///
/// # Panics
/// If a compressor fails writing to memory (it does not).
pub fn compressed(b: &[u8]) -> (usize, usize, usize) {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    gz.write_all(b).expect("in memory");
    let gz = gz.finish().expect("in memory").len();
    let zs = zstd::bulk::compress(b, 3).expect("in memory").len();
    let mut br = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut br, 4096, 9, 22);
        w.write_all(b).expect("in memory");
    }
    (gz, zs, br.len())
}

fn row(dataset: Dataset, peer: &'static str, b: &[u8]) -> Row {
    let (gzip, zstd, brotli) = compressed(b);
    Row {
        dataset,
        peer,
        raw: b.len(),
        gzip,
        zstd,
        brotli,
    }
}

/// The encodings of each dataset's first variant (the seed the benchmarks start from).
///
/// # Panics
/// If a dataset fails to encode (none does).
pub fn encodings(d: Dataset) -> Vec<(&'static str, Vec<u8>)> {
    use bijoubuf::Message as _;
    use bilrost::Message as _;
    use prost::Message as _;
    fn bij<M: bijoubuf::Message>(m: &M) -> Vec<u8> {
        m.encode_to_vec().expect("within limits")
    }
    let s = d.seed();
    match d {
        Dataset::Telemetry => {
            let v: bijou::telemetry::SpanBatch = data::telemetry(s, 64);
            vec![
                ("bijoubuf", bij(&v)),
                ("protobuf", convert::telemetry::to_prost(&v).encode_to_vec()),
                (
                    "bilrost",
                    convert::telemetry::to_bilrost(&v).encode_to_vec(),
                ),
            ]
        }
        Dataset::Cas => {
            let v = data::cas(s, 64, 256);
            vec![
                ("bijoubuf", v.encode_to_vec().expect("within limits")),
                ("protobuf", convert::cas::to_prost(&v).encode_to_vec()),
                ("bilrost", convert::cas::to_bilrost(&v).encode_to_vec()),
            ]
        }
        Dataset::Wide => {
            let v = data::wide(s, 128);
            vec![
                ("bijoubuf", bij(&v)),
                ("protobuf", convert::wide::to_prost(&v).encode_to_vec()),
            ]
        }
        Dataset::Numeric => {
            let v = data::numeric(s, 16, 256);
            vec![
                ("bijoubuf", bij(&v)),
                ("protobuf", convert::numeric::to_prost(&v).encode_to_vec()),
                ("bilrost", convert::numeric::to_bilrost(&v).encode_to_vec()),
            ]
        }
        Dataset::Gm1Proto3 => {
            let v = gm1::proto3(s);
            vec![
                ("bijoubuf", bij(&v)),
                ("protobuf", gm1::proto3_to_prost(&v).encode_to_vec()),
            ]
        }
        Dataset::Gm1Proto2 => {
            let v = gm1::proto2(s);
            vec![
                ("bijoubuf", bij(&v)),
                ("protobuf", gm1::proto2_to_prost(&v).encode_to_vec()),
            ]
        }
    }
}

/// Every row, dataset by dataset.
pub fn rows() -> Vec<Row> {
    let mut out = Vec::new();
    for d in Dataset::ALL {
        for (peer, b) in encodings(d) {
            out.push(row(d, peer, &b));
        }
    }
    out
}

/// The sizes as a Markdown table, with each size's ratio to protobuf's.
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "| dataset | format | raw | vs protobuf | gzip | zstd | brotli |\n\
         |---|---|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let pb = rows
            .iter()
            .find(|x| x.dataset == r.dataset && x.peer == "protobuf");
        let ratio = |a: usize, b: Option<usize>| match b {
            Some(b) if b > 0 => format!(" ({:+.1} %)", (a as f64 / b as f64 - 1.0) * 100.0),
            _ => String::new(),
        };
        let rel = match pb {
            Some(p) if r.peer != "protobuf" => {
                format!("{:+.1} %", (r.raw as f64 / p.raw as f64 - 1.0) * 100.0)
            }
            _ => "–".to_owned(),
        };
        let (g, z, b) = if r.peer == "protobuf" {
            (String::new(), String::new(), String::new())
        } else {
            (
                ratio(r.gzip, pb.map(|p| p.gzip)),
                ratio(r.zstd, pb.map(|p| p.zstd)),
                ratio(r.brotli, pb.map(|p| p.brotli)),
            )
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {}{} | {}{} | {}{} |\n",
            r.dataset.name(),
            r.peer,
            r.raw,
            rel,
            r.gzip,
            g,
            r.zstd,
            z,
            r.brotli,
            b
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compressors_shrink_repetitive_input() {
        let b = vec![7u8; 10_000];
        let (g, z, br) = compressed(&b);
        assert!(g < 100 && z < 100 && br < 100, "{g} {z} {br}");
    }

    #[test]
    fn table_has_a_row_per_peer() {
        let rows: Vec<Row> = encodings(Dataset::Numeric)
            .iter()
            .map(|(p, b)| row(Dataset::Numeric, p, b))
            .collect();
        let t = markdown(&rows);
        assert_eq!(t.lines().count(), 2 + 3);
        assert!(t.contains("| numeric | bilrost |"));
    }
}
