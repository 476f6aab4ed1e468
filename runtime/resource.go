package runtime

// MaxResourceSize bounds the contents of one resource read.
const MaxResourceSize = 16 << 20
