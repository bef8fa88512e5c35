package layerproto

// The generated code in layerpb/ is committed. To regenerate it after editing
// layer.proto, run `go generate` in this directory with protoc 3.21.12,
// protoc-gen-go v1.36.12 and protoc-gen-go-grpc 1.6.2 on PATH; the output
// must be identical to the committed files.
//
//go:generate protoc --proto_path=. --go_out=layerpb --go_opt=paths=source_relative --go-grpc_out=layerpb --go-grpc_opt=paths=source_relative layer.proto
