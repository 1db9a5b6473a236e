#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(v) = kubewhy_model::quantity::parse(&text) {
        assert!(v.is_finite(), "{text:?} gave {v}");
    }
});
