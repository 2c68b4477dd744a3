//! The schema compiler on arbitrary text: diagnostics, never a panic. Valid schemas are
//! also indexed by bijoubuf-reflect, which must not panic either.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(compiled) = bijoubuf_schema::compile_sources(&[("fuzz.proto", text)]) {
        let pool = bijoubuf_reflect::DescriptorPool::new(&compiled.schema);
        for m in pool.messages() {
            let _ = bijoubuf_reflect::DynamicMessage::decode(&m, data);
        }
    }
});
