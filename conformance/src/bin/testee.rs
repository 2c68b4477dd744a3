//! The reference testee: answers the conformance runner's requests (see
//! `conformance/README.md`) on stdin/stdout.
//!
//! `bijoubuf-conformance-testee [--engine reflect|generated]`; the default engine is
//! `reflect` (`bijoubuf-reflect`, which also encodes proto3 JSON); `generated` decodes
//! with the generated code, and encodes the value of an encode request (read from its
//! JSON by reflect) with the generated code under the request's limits.

use std::io::{self, BufReader, BufWriter};

use bijoubuf_conformance::protocol::{Request, answer, read_frame, write_frame};

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let generated = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] | ["--engine", "reflect"] => false,
        ["--engine", "generated"] => true,
        _ => {
            eprintln!("usage: bijoubuf-conformance-testee [--engine reflect|generated]");
            std::process::exit(2);
        }
    };
    let mut input = BufReader::new(io::stdin().lock());
    let mut output = BufWriter::new(io::stdout().lock());
    while let Some(req) = read_frame::<_, Request>(&mut input)? {
        write_frame(&mut output, &answer(&req, generated))?;
    }
    Ok(())
}
