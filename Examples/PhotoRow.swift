/// One row of the photo database as the list holds it: the row's id and revision, never its photo.
///
/// The revision is the row's modification stamp (`rows.modified`), which whoever writes a photo
/// bumps: it is the photo's version, so an edited photo is a new image to the store.
struct PhotoRow: Hashable, Identifiable, Sendable {
    let id: Int64
    let revision: Int64
}
