module github.com/bijoubuf/bijoubuf/go

go 1.26
