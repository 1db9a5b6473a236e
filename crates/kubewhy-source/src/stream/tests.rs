use super::*;
use crate::{Input, load};

/// A pod as kubectl writes it inside a list (8 spaces in, 4 per level).
fn pod(i: usize, typed: bool) -> String {
    let kind = if typed {
        String::new()
    } else {
        "            \"apiVersion\": \"v1\",\n            \"kind\": \"Pod\",\n".to_string()
    };
    format!(
        "        {{\n{kind}            \"metadata\": {{\n                \"name\": \"web-{i}\",\n                \"namespace\": \"shop\",\n                \"uid\": \"u{i}\"\n            }},\n            \"spec\": {{\n                \"containers\": [\n                    {{\n                        \"name\": \"app\",\n                        \"image\": \"nginx\"\n                    }}\n                ]\n            }},\n            \"status\": {{\n                \"phase\": \"Running\"\n            }}\n        }}"
    )
}

/// `kubectl get pods -A -o json`: apiVersion, items, then kind and metadata.
fn kubectl_list(n: usize) -> String {
    let items: Vec<String> = (0..n).map(|i| pod(i, false)).collect();
    format!(
        "{{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n{}\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {{\n        \"resourceVersion\": \"\"\n    }}\n}}\n",
        items.join(",\n")
    )
}

/// `kubectl cluster-info dump`: a typed list, its kind first, items without kind.
fn dump_list(n: usize) -> String {
    let items: Vec<String> = (0..n).map(|i| pod(i, true)).collect();
    format!(
        "{{\n    \"kind\": \"PodList\",\n    \"apiVersion\": \"v1\",\n    \"metadata\": {{\n        \"resourceVersion\": \"42\"\n    }},\n    \"items\": [\n{}\n    ]\n}}\n",
        items.join(",\n")
    )
}

/// Every block of `text`, read `block` bytes at a time.
fn blocks(text: &str, block: usize) -> Result<(Head, Vec<String>, Option<Tail>), ()> {
    let mut r = std::io::Cursor::new(text.as_bytes());
    let (bytes, head) = read_head(&mut r).map_err(drop)?;
    let head = head.ok_or(())?;
    let buffers = Buffers::default();
    let mut b = Blocks::new(r, &bytes, &head, &buffers);
    b.block_bytes = block;
    let mut out = Vec::new();
    while let Some(block) = b.next_block()? {
        out.push(String::from_utf8(block).map_err(drop)?);
    }
    let tail = b.tail.take();
    Ok((head, out, tail))
}

#[test]
fn head_of_kubectl_and_dump_lists() {
    let h = head(kubectl_list(2).as_bytes()).unwrap();
    assert_eq!((h.item_kind.as_str(), h.api.as_str()), ("", "v1"));
    assert_eq!(h.open, b"\n        {");
    assert_eq!(h.close, b"\n    ]");
    let h = head(dump_list(2).as_bytes()).unwrap();
    assert_eq!((h.item_kind.as_str(), h.api.as_str()), ("Pod", "v1"));
}

#[test]
fn head_refuses_what_it_cannot_stream() {
    for text in [
        // Compact JSON: no item starts on a line of its own.
        r#"{"apiVersion":"v1","items":[{"kind":"Pod"}],"kind":"List"}"#,
        // Items on the line of the bracket.
        "{\n    \"items\": [{\n        \"kind\": \"Pod\"\n    }]\n}",
        // One object, not a list.
        "{\n    \"kind\": \"Pod\",\n    \"items\": [\n        {\n        }\n    ]\n}",
        // A key given twice.
        "{\n    \"kind\": \"PodList\",\n    \"kind\": \"PodList\",\n    \"items\": [\n        {\n        }\n    ]\n}",
        // An empty list.
        "{\n    \"items\": [],\n    \"kind\": \"List\"\n}",
        // Not an object; truncated.
        "[\n    {\n    }\n]",
        "{\n    \"apiVersion\": \"v1\",\n    \"items\"",
    ] {
        assert_eq!(head(text.as_bytes()), None, "{text}");
    }
}

#[test]
fn blocks_are_arrays_of_whole_items() {
    let text = kubectl_list(200);
    let (head, blocks, tail) = blocks(&text, 4096).unwrap();
    assert!(blocks.len() > 10, "{} blocks", blocks.len());
    let mut names = Vec::new();
    for b in &blocks {
        let items: Vec<serde_json::Value> = serde_json::from_str(b).unwrap();
        names.extend(
            items
                .iter()
                .map(|i| i["metadata"]["name"].as_str().unwrap().to_string()),
        );
        let part = crate::json::fast_items(b.as_bytes(), &head.item_kind, &head.api).unwrap();
        assert_eq!(part.pods.len(), items.len());
    }
    let want: Vec<String> = (0..200).map(|i| format!("web-{i}")).collect();
    assert_eq!(names, want);
    let tail = tail.unwrap();
    assert_eq!(tail.kind.as_deref(), Some("List"));
    assert!(tail.agrees(&head));
}

#[test]
fn an_item_larger_than_a_block_is_read_whole() {
    let text = dump_list(3);
    let (_, blocks, tail) = blocks(&text, 16).unwrap();
    let n: usize = blocks
        .iter()
        .map(|b| {
            serde_json::from_str::<Vec<serde_json::Value>>(b)
                .unwrap()
                .len()
        })
        .sum();
    assert_eq!(n, 3);
    assert!(tail.unwrap().kind.is_none());
}

#[test]
fn a_layout_that_breaks_its_promise_gives_way() {
    // The items' line pattern inside an item (a misindented nested object): the cut lands
    // inside it, and the block before does not end with `},`.
    let text = kubectl_list(50).replace(
        "                \"phase\": \"Running\"",
        "                \"x\": [\n        {\n        }\n                ]",
    );
    assert!(
        blocks(&text, 1024).is_err() || {
            let (head, blocks, _) = blocks(&text, 1024).unwrap();
            blocks.iter().any(|b| {
                crate::json::fast_items(b.as_bytes(), &head.item_kind, &head.api).is_none()
            })
        }
    );
    // Something after the list.
    let text = format!("{}{{}}\n", kubectl_list(5));
    assert!(blocks(&text, 1024).is_err());
    // A tail that names another kind of list for items read by their own kinds is fine; one
    // that says the document is a Pod is not.
    let text = kubectl_list(5).replace("\"kind\": \"List\"", "\"kind\": \"Pod\"");
    let (head, _, tail) = blocks(&text, 1024).unwrap();
    assert!(!tail.unwrap().agrees(&head));
}

/// A list large enough to be streamed, on disk.
fn big_file(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    assert!(text.len() as u64 >= MIN_BYTES, "{} bytes", text.len());
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// What the loader makes of a file streamed, and of the same text read whole.
fn both_ways(text: &str) -> (crate::Loaded, crate::Loaded) {
    let dir = scratch();
    let path = big_file(dir.path(), "pods.json", text);
    let streamed = load(&[Input::Path(path.clone())], None);
    let whole = load(
        &[Input::Text {
            name: path.display().to_string(),
            text: text.to_string(),
        }],
        None,
    );
    (streamed, whole)
}

fn names(l: &crate::Loaded) -> Vec<String> {
    l.snapshot
        .pods
        .iter()
        .map(|p| p.metadata.name.to_string())
        .collect()
}

#[test]
fn a_large_list_streamed_loads_what_reading_it_whole_does() {
    for (name, text) in [
        ("kubectl", kubectl_list(40_000)),
        ("dump", dump_list(45_000)),
    ] {
        let (streamed, whole) = both_ways(&text);
        assert!(
            streamed.warnings.is_empty(),
            "{name}: {:?}",
            streamed.warnings
        );
        assert_eq!(names(&streamed), names(&whole), "{name}");
        assert_eq!(streamed.snapshot.kinds_loaded, whole.snapshot.kinds_loaded);
    }
}

#[test]
fn a_large_list_with_a_bad_field_is_read_again_and_the_field_reported() {
    let text = kubectl_list(40_000).replacen("\"phase\": \"Running\"", "\"phase\": [1]", 30_000);
    let text = text.replacen("\"phase\": [1]", "\"phase\": \"Running\"", 29_999);
    let (streamed, whole) = both_ways(&text);
    assert!(streamed.warnings.is_empty(), "{:?}", streamed.warnings);
    assert_eq!((streamed.dropped_fields, whole.dropped_fields), (1, 1));
    assert_eq!(
        format!("{:?}", streamed.dropped_examples),
        format!("{:?}", whole.dropped_examples)
    );
    let w = &streamed.dropped_examples[0];
    assert!(
        w.message.contains("Pod ") && w.message.contains("status.phase: removed"),
        "{w:?}"
    );
    assert_eq!(streamed.snapshot.pods.len(), 40_000);
    assert_eq!(names(&streamed), names(&whole));
}

/// A pod's metadata with managedFields as kubectl prints them (the key 12 spaces in).
const MANAGED: &str = "            \"managedFields\": [\n                {\n                    \"manager\": \"kubelet\",\n                    \"fieldsV1\": {\n                        \"f:status\": {}\n                    }\n                }\n            ],\n";

fn with_managed(i: usize) -> String {
    pod(i, false).replacen(
        "            \"metadata\": {\n",
        &format!(
            "            \"metadata\": {{\n{}",
            MANAGED.replace("            ", "                ")
        ),
        1,
    )
}

#[test]
fn managed_fields_are_emptied_and_nothing_else_changes() {
    let block = format!("[\n{},\n{}]", with_managed(1), with_managed(2));
    let mut emptied = block.clone().into_bytes();
    empty_managed_fields(&mut emptied);
    let emptied = String::from_utf8(emptied).unwrap();
    assert_eq!(
        emptied.matches("\"managedFields\": []").count(),
        2,
        "{emptied}"
    );
    assert!(!emptied.contains("kubelet"), "{emptied}");
    assert_eq!(
        emptied.replace("                \"managedFields\": [],\n", ""),
        block.replace(&MANAGED.replace("            ", "                "), ""),
    );
    let a = crate::json::fast_items(block.as_bytes(), "", "").unwrap();
    let b = crate::json::fast_items(emptied.as_bytes(), "", "").unwrap();
    assert_eq!(format!("{:?}", a.pods), format!("{:?}", b.pods));
    assert_eq!(b.pods.len(), 2);
}

#[test]
fn managed_fields_not_laid_out_as_kubectl_writes_them_are_left_alone() {
    for text in [
        // empty, on one line
        "[{\n    \"metadata\": {\n        \"managedFields\": [],\n        \"name\": \"a\"\n    }\n}]",
        // not at the start of its line
        "[{\n    \"metadata\": {\"managedFields\": [\n        {}\n    ], \"name\": \"a\"\n    }\n}]",
        // a `]` before the closing line: that line may close something else
        "[{\n    \"metadata\": {\n        \"managedFields\": [\n            {}\n            ],\n            \"x\": [\n        ]\n    }\n}]",
        "[{\n    \"metadata\": {\n        \"managedFields\": [\n            {\"v:\\\"[a]\\\"\": {}}\n        ]\n    }\n}]",
        // never closed at the key's indentation
        "[{\n    \"metadata\": {\n        \"managedFields\": [\n            {}\n    ]}\n}]",
    ] {
        let mut b = text.as_bytes().to_vec();
        empty_managed_fields(&mut b);
        assert_eq!(String::from_utf8(b).unwrap(), text);
    }
}
