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
use crate::store::blobs::FileRow;
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

    /// Records `row` with the file at `temp` (moved away or removed, whatever happens) as its
    /// raw file `sha256`, in one transaction that holds the file (see [`crate::store::blobs`]).
    /// Answers the row's id (0 for a staged upload). When the row cannot be written nothing of
    /// it stays: the file is removed again unless another row names it.
    pub async fn record(
        &self,
        temp: &Path,
        sha256: &str,
        row: FileRow<'_>,
    ) -> Result<i64, ServiceError> {
        tokio::fs::create_dir_all(&self.dir)
            .await
            .map_err(internal)?;
        // Beside its final name from here on, so that the last step is a rename.
        let part = self
            .dir
            .join(format!("{sha256}.{:016x}.part", rand::random::<u64>()));
        if let Err(error) = move_file(temp, &part).await {
            let _ = tokio::fs::remove_file(temp).await;
            return Err(internal(error));
        }
        let path = self.dir.join(sha256);
        if !self.in_database() {
            // On SQLite this folder is the only copy: link it in before the row is written, so
            // a crash after the commit leaves no row without its file. (Already there: the same
            // bytes.)
            match tokio::fs::hard_link(&part, &path).await {
                Ok(()) => {}
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(error) => {
                    let _ = tokio::fs::remove_file(&part).await;
                    return Err(internal(error));
                }
            }
        }
        let blob = self.in_database().then_some(part.as_path());
        match self.store.write_with_file(sha256, blob, row).await {
            Ok(id) => {
                // After the commit the file is in place whatever a release did meanwhile: a
                // release that found no row removed it before this row existed. (A rename onto
                // a link of the same file does nothing; the link is removed then.)
                let placed = tokio::fs::rename(&part, &path).await;
                let _ = tokio::fs::remove_file(&part).await;
                if let Err(error) = placed
                    && !self.in_database()
                {
                    return Err(internal(error));
                }
                Ok(id)
            }
            Err(error) => {
                let _ = tokio::fs::remove_file(&part).await;
                if !self.in_database() {
                    self.release(sha256).await;
                }
                Err(error.into())
            }
        }
    }

    /// Removes file `sha256` (its database copy and this instance's) when no evidence row and
    /// no staged upload names it any more; failures are logged, the file then stays (an orphan
    /// `server check` reports).
    pub async fn release(&self, sha256: &str) {
        if let Err(error) = self
            .store
            .release_file(sha256, &self.dir.join(sha256))
            .await
        {
            tracing::warn!(%error, sha256, "an unused evidence file was not removed");
        }
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
}

/// Moves `from` to `to`: a rename, or a copy where they are on different file systems.
async fn move_file(from: &Path, to: &Path) -> std::io::Result<()> {
    if tokio::fs::rename(from, to).await.is_ok() {
        return Ok(());
    }
    tokio::fs::copy(from, to).await?;
    tokio::fs::remove_file(from).await
}
