//! Where raw evidence files are kept, so every server instance on one database reads the same
//! files.
//!
//! Why: the design promises instances that are stateless apart from the database, so several can
//! run behind a load balancer on PostgreSQL. Raw files are read long after their upload (the
//! combined demand profile of all gateway logs, the trace export, re-derivation at start-up), and
//! the instance that serves that request is rarely the one that received the file.
//!
//! * **On PostgreSQL** the file goes into the database in 1 MiB chunks
//!   ([`crate::store::blobs`]), and each instance keeps a copy under its own
//!   `DATA_DIR/evidence/<sha256>` as a cache: [`Blobs::local_path`] fetches it from the database
//!   the first time an instance needs it, one chunk at a time.
//! * **On SQLite** (one instance, the embedded default) the file is kept only under
//!   `DATA_DIR/evidence/<sha256>`, as before.
//!
//! Files are named by their SHA-256, so a copy is never stale: the same name is the same bytes.
//! Readers get a local path because the importers and the demand accumulator stream from files
//! (on several cores, in bounded memory).

use crate::ServiceError;
use crate::store::{Backend, Store};
use std::path::{Path, PathBuf};
use tokio::io::AsyncWriteExt;

/// The evidence files of an installation (see the module docs).
#[derive(Clone, Debug)]
pub struct Blobs {
    /// `DATA_DIR/evidence`: the files (SQLite), or this instance's copies of them (PostgreSQL).
    dir: PathBuf,
    store: Store,
}

fn internal(error: impl std::fmt::Display) -> ServiceError {
    tracing::error!(%error, "evidence file storage failed");
    ServiceError::Internal
}

impl Blobs {
    /// The files of `store`'s installation, with local files under `data_dir/evidence`.
    pub fn new(data_dir: &Path, store: Store) -> Blobs {
        Blobs {
            dir: data_dir.join("evidence"),
            store,
        }
    }

    /// Whether the files live in the database (PostgreSQL) rather than only on this instance.
    pub fn in_database(&self) -> bool {
        self.store.backend() == Backend::Postgres
    }

    /// Keeps the file at `temp` (moved away) as `sha256`; `true` when this call stored it, so
    /// that [`Blobs::forget`] may remove it again if its evidence row cannot be written. A file
    /// already kept (the same bytes, e.g. another pilot's) is left as it is.
    pub async fn keep_file(&self, temp: &Path, sha256: &str) -> Result<bool, ServiceError> {
        let created = if self.in_database() {
            self.store.put_blob_from_file(sha256, temp).await?
        } else {
            !tokio::fs::try_exists(self.dir.join(sha256))
                .await
                .map_err(internal)?
        };
        self.cache(temp, sha256).await?;
        Ok(created)
    }

    /// [`Blobs::keep_file`] for bytes in memory.
    pub async fn keep_bytes(&self, bytes: &[u8], sha256: &str) -> Result<bool, ServiceError> {
        tokio::fs::create_dir_all(&self.dir)
            .await
            .map_err(internal)?;
        let temp = self.dir.join(format!("{sha256}.part"));
        tokio::fs::write(&temp, bytes).await.map_err(internal)?;
        let kept = self.keep_file(&temp, sha256).await;
        let _ = tokio::fs::remove_file(&temp).await;
        kept
    }

    /// Removes a file this call's [`Blobs::keep_file`] stored, when its row was not written.
    pub async fn forget(&self, sha256: &str) {
        if self.in_database() {
            let _ = self.store.delete_blob(sha256).await;
        }
        let _ = tokio::fs::remove_file(self.dir.join(sha256)).await;
    }

    /// A local path holding file `sha256`: this instance's file, fetched from the database
    /// first when this instance has no copy yet. `NotFound`-like failures are internal errors:
    /// every evidence row names a kept file.
    pub async fn local_path(&self, sha256: &str) -> Result<PathBuf, ServiceError> {
        let path = self.dir.join(sha256);
        if tokio::fs::try_exists(&path).await.map_err(internal)? || !self.in_database() {
            return Ok(path);
        }
        tokio::fs::create_dir_all(&self.dir)
            .await
            .map_err(internal)?;
        let temp = self
            .dir
            .join(format!("{sha256}.{:016x}.part", rand::random::<u64>()));
        let fetched = self.fetch(sha256, &temp).await;
        match fetched {
            Ok(()) => {
                tokio::fs::rename(&temp, &path).await.map_err(internal)?;
                Ok(path)
            }
            Err(error) => {
                let _ = tokio::fs::remove_file(&temp).await;
                Err(error)
            }
        }
    }

    /// Writes blob `sha256` from the database to `target`, one chunk at a time.
    async fn fetch(&self, sha256: &str, target: &Path) -> Result<(), ServiceError> {
        let mut file = tokio::fs::File::create(target).await.map_err(internal)?;
        let mut index = 0;
        while let Some(chunk) = self.store.blob_chunk(sha256, index).await? {
            file.write_all(&chunk).await.map_err(internal)?;
            index += 1;
        }
        if index == 0 {
            return Err(internal(format!("evidence file {sha256} is not stored")));
        }
        file.flush().await.map_err(internal)?;
        Ok(())
    }

    /// Puts the file at `temp` in place as this instance's copy (moved; removed when a copy is
    /// already there).
    async fn cache(&self, temp: &Path, sha256: &str) -> Result<(), ServiceError> {
        tokio::fs::create_dir_all(&self.dir)
            .await
            .map_err(internal)?;
        let path = self.dir.join(sha256);
        if tokio::fs::try_exists(&path).await.map_err(internal)? {
            let _ = tokio::fs::remove_file(temp).await;
            return Ok(());
        }
        tokio::fs::rename(temp, &path).await.map_err(internal)
    }
}
