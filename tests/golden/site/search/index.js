mirrorSearch.m({"v":6,"chunk":8192,"docs":98,"kinds":{"c":[16384,32768],"k":[32768,49152],"f":[0,16384]},"per":[11,5,82],"key":"d178f1d34e4728e8","keys":["3ad84219934d","9c2e21b688ff"],"first":[
"../../etc/passwd",
"by"]});
