module github.com/bijoubuf/bijoubuf/go/bench

go 1.26

require (
	github.com/bijoubuf/bijoubuf/go v0.0.0
	google.golang.org/protobuf v1.36.12
)

require github.com/planetscale/vtprotobuf v0.6.0

replace github.com/bijoubuf/bijoubuf/go => ../
