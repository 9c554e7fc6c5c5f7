//! File images held in memory (a download, a file picked in the browser, a test's bytes):
//! a writable backend, used once to verify an image's checksums (redb verifies, and
//! repairs in memory, only a database it may write), and the read-only image searched
//! afterwards.

use super::chunked::ImageSource;
use redb::StorageBackend;
use std::io::Error as BackendIoError;
use std::sync::{Arc, RwLock};

/// The bytes of a metagate file.
#[derive(Debug)]
pub struct MemoryImage(pub Vec<u8>);

impl ImageSource for MemoryImage {
    fn len(&self) -> std::io::Result<u64> {
        Ok(self.0.len() as u64)
    }

    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        let start = usize::try_from(offset).ok();
        let src = start.and_then(|s| self.0.get(s..s.checked_add(out.len())?));
        let src = src.ok_or_else(|| std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "read past the end"))?;
        out.copy_from_slice(src);
        Ok(())
    }
}

/// The file image, growable so redb may write to it as it would to a file.
#[derive(Debug, Clone)]
pub struct MemoryBackend(pub Arc<RwLock<Vec<u8>>>);

fn out_of_range() -> BackendIoError {
    BackendIoError::new(std::io::ErrorKind::InvalidInput, "offset out of range")
}

impl StorageBackend for MemoryBackend {
    fn len(&self) -> Result<u64, BackendIoError> {
        Ok(self.0.read().map_err(|_| out_of_range())?.len() as u64)
    }

    fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), BackendIoError> {
        let guard = self.0.read().map_err(|_| out_of_range())?;
        let start = usize::try_from(offset).map_err(|_| out_of_range())?;
        let src = guard.get(start..start + out.len()).ok_or_else(out_of_range)?;
        out.copy_from_slice(src);
        Ok(())
    }

    fn set_len(&self, len: u64) -> Result<(), BackendIoError> {
        let mut guard = self.0.write().map_err(|_| out_of_range())?;
        guard.resize(usize::try_from(len).map_err(|_| out_of_range())?, 0);
        Ok(())
    }

    fn sync_data(&self) -> Result<(), BackendIoError> {
        Ok(())
    }

    fn write(&self, offset: u64, data: &[u8]) -> Result<(), BackendIoError> {
        let mut guard = self.0.write().map_err(|_| out_of_range())?;
        let start = usize::try_from(offset).map_err(|_| out_of_range())?;
        let dst = guard.get_mut(start..start + data.len()).ok_or_else(out_of_range)?;
        dst.copy_from_slice(data);
        Ok(())
    }
}
