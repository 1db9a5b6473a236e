#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(s) = kubewhy_model::selector::Selector::parse(&text) {
        let labels: kubewhy_model::objects::Labels = [("app", "web"), ("tier", "fe")].into();
        let _ = s.matches(&labels);
    }
});
