mirrorSearch.m({"v":4,"chunk":8192,"docs":95,"kinds":{"c":[16384,32768],"k":[32768,49152],"f":[0,16384]},"per":[11,5,79],"key":"b0087ba8fb6b6245","keys":["3ad84219934d","9c2e21b688ff"],"first":[
"../../etc/passwd",
"by"]});
