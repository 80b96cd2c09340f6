// The sketch includes Wire.h for the I2C LCD; the stub LCD needs nothing from it.
#ifndef WIRE_STUB_H
#define WIRE_STUB_H
#include "Arduino.h"
#endif
