//! The SQLite and PostgreSQL migration folders must stay in step.

use std::collections::BTreeSet;
use std::path::Path;

fn migration_names(backend: &str) -> BTreeSet<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../migrations")
        .join(backend);
    std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".sql"))
        .collect()
}

#[test]
fn sqlite_and_postgres_migrations_have_the_same_versions_and_names() {
    let sqlite = migration_names("sqlite");
    let postgres = migration_names("postgres");
    assert!(!sqlite.is_empty(), "no migrations found");
    assert_eq!(sqlite, postgres, "migration folders drifted apart");
}

#[test]
fn both_backends_create_the_same_tables() {
    let tables = |backend: &str| -> BTreeSet<String> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../migrations")
            .join(backend);
        migration_names(backend)
            .iter()
            .flat_map(|name| {
                let sql = std::fs::read_to_string(dir.join(name)).unwrap();
                sql.lines()
                    .filter_map(|line| line.trim().strip_prefix("CREATE TABLE "))
                    .map(|rest| rest.split_whitespace().next().unwrap().to_string())
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    assert_eq!(tables("sqlite"), tables("postgres"));
}
